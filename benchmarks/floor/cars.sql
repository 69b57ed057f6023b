-- Spider car_1-like. Names are not keys: two countries (makers, continents) may share a name.
CREATE TABLE continents (
    cont_id INTEGER PRIMARY KEY,
    continent TEXT
);
CREATE TABLE countries (
    country_id INTEGER PRIMARY KEY,
    country_name TEXT,
    continent INTEGER,
    FOREIGN KEY (continent) REFERENCES continents (cont_id)
);
CREATE TABLE car_makers (
    id INTEGER PRIMARY KEY,
    maker TEXT,
    full_name TEXT,
    country INTEGER,
    FOREIGN KEY (country) REFERENCES countries (country_id)
);
CREATE TABLE model_list (
    model_id INTEGER PRIMARY KEY,
    maker INTEGER,
    model TEXT,
    FOREIGN KEY (maker) REFERENCES car_makers (id)
);
CREATE TABLE cars_data (
    id INTEGER PRIMARY KEY,
    model_id INTEGER,
    mpg DOUBLE,
    cylinders INTEGER,
    horsepower INTEGER,
    weight INTEGER,
    accelerate DOUBLE,
    year INTEGER,
    FOREIGN KEY (model_id) REFERENCES model_list (model_id)
);
