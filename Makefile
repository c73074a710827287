# The two commands: `make run` serves everything in one process, `make test` runs every suite.
SHELL := /bin/bash
RUN_PACKAGES := ffmpeg
TEST_PACKAGES := ffmpeg nats-server chromium nginx openssl

.PHONY: run test deps test-deps web typecheck lint unit soak bench openapi client db-generate backup restore

# node with tsx as its loader, not the tsx command: one process, so a stop signal reaches the app itself
# and nothing in between kills it for answering slowly.
run: deps web
	@if [ -t 1 ]; then export LOG_PRETTY=$${LOG_PRETTY:-1}; fi; exec node --import tsx main.ts

deps:
	@scripts/ensure-deps.sh $(RUN_PACKAGES)
	@scripts/build-native.sh

test-deps:
	@scripts/ensure-deps.sh $(TEST_PACKAGES)
	@scripts/build-native.sh

# The browser UI bundle (web/dist), rebuilt only when web/src or the API client is newer than it.
web:
	@npx tsx scripts/build-web.ts

test: test-deps typecheck lint web unit

typecheck:
	npx tsc --noEmit -p tsconfig.json
	npx vue-tsc --noEmit -p web/tsconfig.json

lint:
	npx biome check .

unit:
	npx tsx scripts/run-tests.ts

# The listener churn of `make test` (10 bots, 20 listeners coming and going, 5 % loss) for 30 minutes.
soak: test-deps
	CHURN_SECONDS=1800 npx vitest run tests/daemon/listener-churn.test.ts

bench: test-deps
	npx tsx bench/run.ts

# Regenerate the committed OpenAPI document and the typed client from the route contracts.
openapi: deps
	npx tsx scripts/emit-platform-lists.ts
	npx tsx scripts/emit-openapi.ts

client: openapi
	npx tsx scripts/generate-client.ts

db-generate: deps
	npx drizzle-kit generate

# A snapshot of DATA_DIR's database and uploads while the service runs, under TO (default backups/);
# `make restore FROM=<snapshot folder>` puts one back with the service stopped (docs/backup.md).
backup:
	@npx tsx scripts/backup.ts $(TO)

restore:
	@npx tsx scripts/restore.ts $(FROM)
