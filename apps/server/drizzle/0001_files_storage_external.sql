-- Uploaded images are already compressed (JPEG/PNG) and PDFs mostly so: skip pglz's
-- doomed compression attempt and store the bytes out of line as they are.
ALTER TABLE "files" ALTER COLUMN "data" SET STORAGE EXTERNAL;
