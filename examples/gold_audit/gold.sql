SELECT count(*) FROM student	school
SELECT name FROM student ORDER BY age DESC LIMIT 1	school
SELECT name, major FROM student ORDER BY major	school
SELECT title FROM course LIMIT 3	school
SELECT dept, title, count(*) FROM course GROUP BY dept	school
SELECT name FROM student ORDER BY random() LIMIT 1	school
SELECT title FROM course	school
SELECT name FROM student WHERE major = 'Physics' ORDER BY student_id	school
SELECT name FROM student WHERE student_id IN (SELECT student_id FROM student ORDER BY student_id LIMIT 3)	school
SELECT name FROM student ORDER BY gpa, student_id LIMIT 1	school
SELECT name FROM student WHERE student_id NOT IN (SELECT student_id FROM advisor)	school
SELECT name FROM student WHERE credits > 100	school
SELECT name FROM student WHERE age > 100	school
SELECT count(DISTINCT student_id) FROM enrollment	school
SELECT count(*) FROM course	school
SELECT avg(age) FROM student	school
SELECT major, count(*) FROM student GROUP BY major	school
SELECT title FROM course ORDER BY capacity DESC, course_id LIMIT 1	school
SELECT T1.name, T3.title FROM student AS T1 JOIN enrollment AS T2 ON T1.student_id = T2.student_id JOIN course AS T3 ON T2.course_id = T3.course_id	school
SELECT title FROM course WHERE capacity > 30	school
SELECT name FROM student ORDER BY name	school
SELECT name FROM student WHERE student_id IN (SELECT student_id FROM advisor)	school
SELECT title FROM course WHERE course_id NOT IN (SELECT course_id FROM enrollment)	school
SELECT course_id, max(grade) FROM enrollment GROUP BY course_id	school
SELECT count(*) FROM customer WHERE city = 'Paris'	shop
SELECT sum(amount) FROM orders WHERE status = 'shipped'	shop
SELECT T1.name FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id ORDER BY T2.amount DESC LIMIT 1	shop
SELECT count(*) FROM orders WHERE placed >= date('now', '-30 days')	shop
SELECT T2.order_id, T1.name FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id	shop
SELECT city FROM customer GROUP BY city HAVING count(*) > 1	shop
SELECT max(placed) FROM orders	shop
SELECT T1.name, count(*) FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id GROUP BY T1.id	shop
SELECT DISTINCT status FROM orders	shop
SELECT count(*) FROM num AS a, num AS b, num AS c, num AS d, num AS e WHERE a.n < b.n	metrics
