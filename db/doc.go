// Package db is adboost's PostgreSQL: the typed queries sqlc generates from
// the annotated statements of sql/queries against sql/schema.sql (the
// *.sql.go and *.gen.go files, one per query file), the pool (Open, with
// the statement time-out of the serving pool), the goose migrations of
// sql/migrations embedded in the binary (MigrateUp), and InTx for the
// statements that must commit together. Its subpackages adapt what the database serves: boost (the
// boosting engine), dataset (the import format and the demo), rules (a
// campaign's rules), report (the weekly report mail), mailer (the mails as
// River jobs, and their SMTP client), jobs (the process's one River client)
// and dbtest (a fresh database for each test).
//
// Recipes:
//
//   - A query: write it in the sql/queries file of its table, with a
//     comment saying what it answers and why, named parameters (@name,
//     sqlc.narg(name) for an optional one) and no SELECT *; run `make
//     generate`, then `make vet-sql`, which EXPLAINs it with sequential
//     scans off: a filter on a large table needs an index, in a migration.
//     Logic about stored data belongs in the statement, not in a Go loop
//     over its rows.
//   - A migration: a new sql/migrations/NNNNN_name.sql with a header
//     comment on what it adds and why, `-- +goose Up` and `-- +goose Down`;
//     constraints in the schema (CHECK, foreign keys), one CREATE TRIGGER
//     per trigger, none in loops; then `make schema` writes sql/schema.sql
//     (the schema as it stands, which sqlc reads; a derived table or
//     trigger gets its entry in the file's header) and `make generate`
//     picks the new columns up. db.MigrateUp applies it at `adboost serve`
//     and `adboost migrate up`, after River's own migrations (its river_*
//     tables).
//   - A route: a handler in the http package, func(ctx, *Request)
//     (Answer, error), whose request type has a validate method for its
//     400s (and a bind method when it reads the path or the query), that
//     calls one query or one transaction and answers its own answer type;
//     register it in http/server.go with mount (public or bearer, the
//     pattern, the handler, options such as withStatus), which takes the
//     request and answer types from the handler, so the compiler checks
//     its shape, and gives every failure the error envelope; describe it
//     in http/openapi.yaml (the tests check every exchange against the
//     document, and every route has to be in it); `make client`
//     regenerates the test client.
//   - A job: an args type with Kind() (and InsertOpts() for its queue and
//     attempts) and a worker whose Work does the job, as River wants them
//     (see boost's River jobs and report's); add the worker in jobs.New, the
//     one River client of a process, in the queue of the processes that
//     should work it. Insert it with that client's InsertManyTx in the
//     transaction of the write that causes it, so that a rolled back write
//     leaves no job; a job inserting more takes the client that works it
//     (river.ClientFromContext).
//   - A mail: a job whose args say what the mail is about, InsertOpts()
//     mailer.InsertOpts() (the queue "mail", its attempts), and a
//     mailer.NewWorker with the function that renders its mailer.Message
//     (mailer.ErrNoMail when it is no longer wanted): the worker sends it
//     with the process's SMTP client and retries with a capped backoff.
package db
