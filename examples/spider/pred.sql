SELECT count(1) FROM singer
SELECT T1.name, T2.amount FROM orders AS T2 JOIN customer AS T1 ON T2.customer_id = T1.id
SELECT Name FROM singer ORDER BY Age DESC, Singer_ID LIMIT 1
SELECT T1.Name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID
SELECT count(*) FROM orders WHERE status IS NOT 'cancelled'
SELECT Name FROM singer WHERE Net_Worth_Millions > 200
SELECT Name, Age / 2 FROM singer
SELECT Name FROM singer WHERE Name LIKE 'j%'
SELECT Country FROM singer GROUP BY Country
SELECT count(*) FROM singer WHERE Age > 40
SELECT Name FROM singer WHERE Country =
