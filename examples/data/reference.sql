-- How many teams does each league have? (the reference: leagues without a team count 0)
SELECT l.name, COUNT(t.id) AS teams
FROM league l LEFT JOIN team t ON t.league_id = l.id
GROUP BY l.id;
