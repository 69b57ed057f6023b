SELECT count(*) FROM singer	concert_singer
SELECT T1.name, T2.amount FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id	shop
SELECT Name FROM singer WHERE Age = (SELECT max(Age) FROM singer)	concert_singer
SELECT T1.Name, count(T2.concert_ID) FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID	concert_singer
SELECT count(*) FROM orders WHERE status != 'cancelled'	shop
SELECT Name FROM singer WHERE CAST(Net_Worth_Millions AS INTEGER) > 200	concert_singer
SELECT Name, Age / 2.0 FROM singer	concert_singer
SELECT Name FROM singer WHERE Name LIKE 'J%'	concert_singer
SELECT DISTINCT Country FROM singer	concert_singer
SELECT count(*) FROM singer WHERE Age >= 40	concert_singer
SELECT Name FROM singer WHERE Country = 'France'	concert_singer
