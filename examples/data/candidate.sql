-- How many teams does each league have? (a model's answer)
SELECT l.name, COUNT(*) AS teams
FROM league l JOIN team t ON t.league_id = l.id
GROUP BY l.id;
