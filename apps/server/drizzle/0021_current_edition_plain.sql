-- The edition a read is about is named by its query (DESIGN.md §9): a staff read of a past
-- edition passes that edition's id to its service (lib/edition-read.ts), so no setting names
-- it any more. What a row is written into by default, and what every current read names, is
-- the one current edition.
CREATE OR REPLACE FUNCTION current_edition_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  select id from public.editions where current
$$;
