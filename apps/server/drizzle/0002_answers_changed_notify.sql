-- Every server instance keeps the public answers it built (a rider's profile, the taken
-- rider numbers) until something they come from changes. A change made anywhere (another
-- server instance on the same PostgreSQL, psql, a migration) is announced on the
-- rally_answers channel when its transaction commits, and every listening server drops its
-- answers. NOTIFY folds the announcements of one transaction into one.
CREATE OR REPLACE FUNCTION rally_answers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rally_answers', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER verifications_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON verifications
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER files_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON files
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER fires_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fires
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
--> statement-breakpoint
CREATE TRIGGER comments_answers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION rally_answers_changed();
