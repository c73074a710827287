# The two commands: `make run` serves everything in one process, `make test` runs every suite.
SHELL := /bin/bash
RUN_PACKAGES := ffmpeg
TEST_PACKAGES := ffmpeg nats-server chromium

.PHONY: run test deps test-deps typecheck lint unit bench openapi client db-generate

run: deps
	@if [ -t 1 ]; then export LOG_PRETTY=$${LOG_PRETTY:-1}; fi; exec npx tsx main.ts

deps:
	@scripts/ensure-deps.sh $(RUN_PACKAGES)

test-deps:
	@scripts/ensure-deps.sh $(TEST_PACKAGES)

test: test-deps typecheck lint unit

typecheck:
	npx tsc --noEmit -p tsconfig.json

lint:
	npx biome check .

unit:
	npx tsx scripts/run-tests.ts

bench: test-deps
	npx tsx bench/run.ts

# Regenerate the committed OpenAPI document and the typed client from the route contracts.
openapi: deps
	npx tsx scripts/emit-openapi.ts

client: openapi
	npx tsx scripts/generate-client.ts

db-generate: deps
	npx drizzle-kit generate
