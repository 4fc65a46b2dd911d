-- Run on the throwaway database that `make vet-sql` migrates for `sqlc vet`,
-- never on a real one. sqlc vet EXPLAINs each query with a placeholder for
-- each parameter, '' for text; the queries take decimals as text and cast
-- them ((@price::text)::numeric), which '' cannot be. This cast reads '' as 0
-- so that those queries can be explained and checked like the others.
CREATE FUNCTION sqlc_vet_text_to_numeric(t text) RETURNS numeric
    LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT numeric_in(textout(CASE WHEN btrim(t) = '' THEN '0' ELSE t END), 0, -1) $$;
CREATE CAST (text AS numeric) WITH FUNCTION sqlc_vet_text_to_numeric(text);
