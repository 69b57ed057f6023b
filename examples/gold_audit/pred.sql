SELECT count(*) FROM student
SELECT name FROM student ORDER BY age DESC LIMIT 1
SELECT name, major FROM student ORDER BY major
SELECT title FROM course LIMIT 3
SELECT dept, title, count(*) FROM course GROUP BY dept
SELECT name FROM student ORDER BY random() LIMIT 1
SELECT title FROM course
SELECT name FROM student WHERE major = 'Physics' ORDER BY student_id
SELECT name FROM student WHERE student_id IN (SELECT student_id FROM student ORDER BY student_id LIMIT 3)
SELECT name FROM student ORDER BY gpa, student_id LIMIT 1
SELECT name FROM student WHERE student_id NOT IN (SELECT student_id FROM advisor)
SELECT name FROM student WHERE credits > 100
SELECT name FROM student WHERE age > 100
SELECT count(DISTINCT student_id) FROM enrollment
SELECT count(*) FROM course
SELECT avg(age) FROM student
SELECT major, count(*) FROM student GROUP BY major
SELECT T1.name, T3.title FROM student AS T1 JOIN enrollment AS T2 ON T1.student_id = T2.student_id JOIN course AS T3 ON T2.course_id = T3.course_id
SELECT title FROM course WHERE capacity > 30
SELECT name FROM student ORDER BY name
SELECT name FROM student WHERE student_id IN (SELECT student_id FROM advisor)
SELECT title FROM course WHERE course_id NOT IN (SELECT course_id FROM enrollment)
SELECT title FROM course WHERE course_id NOT IN (SELECT course_id FROM enrollment)
SELECT course_id, max(grade) FROM enrollment GROUP BY course_id
SELECT count(*) FROM customer WHERE city = 'Paris'
SELECT sum(amount) FROM orders WHERE status = 'shipped'
SELECT T1.name FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id ORDER BY T2.amount DESC LIMIT 1
SELECT count(*) FROM orders WHERE placed >= date('now', '-30 days')
SELECT T2.order_id, T1.name FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id
SELECT city FROM customer GROUP BY city HAVING count(*) > 1
SELECT max(placed) FROM orders
SELECT T1.name, count(*) FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id GROUP BY T1.id
SELECT DISTINCT status FROM orders
SELECT count(*) FROM num
