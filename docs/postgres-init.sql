-- The database of docs/postgres-compose.yml: an application role that is not a superuser (a
-- superuser would bypass row-level security) owning a database with pgvector.
CREATE ROLE mnemex LOGIN PASSWORD 'mnemex';
CREATE DATABASE mnemex OWNER mnemex;
\connect mnemex
CREATE EXTENSION vector;
