# One production image for the five services; the service is chosen by the first argument:
#   docker run outbound-webhooks dispatcher            (start)
#   docker run outbound-webhooks dispatcher migrate    (apply the service's migrations and exit)
# syntax=docker/dockerfile:1
# Node.js 22 LTS: docs/operations.md "Supported Node.js versions".

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The install applies these to node_modules (patch-package, package.json's postinstall).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN NX_DAEMON=false npx nx run-many -t build \
      --projects=manifest-api,payload-builder,dispatcher,retry-scheduler,notifier

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; no install scripts run in the runtime image. Every package patches/ changes comes
# from the build stage, where the install applied the patch (kafkajs: its producer's encoding and describeCluster;
# @nestjs/common, @nestjs/swagger, class-validator, typeorm and undici: what they load on first use, not at start;
# markdown-it: its class fields set by assignment; docs/performance.md).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /src/node_modules/kafkajs ./node_modules/kafkajs
COPY --from=build /src/node_modules/@nestjs/common ./node_modules/@nestjs/common
COPY --from=build /src/node_modules/@nestjs/swagger ./node_modules/@nestjs/swagger
COPY --from=build /src/node_modules/class-validator ./node_modules/class-validator
COPY --from=build /src/node_modules/typeorm ./node_modules/typeorm
COPY --from=build /src/node_modules/undici ./node_modules/undici
COPY --from=build /src/node_modules/markdown-it ./node_modules/markdown-it

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/apps ./apps
COPY deploy/docker/source-maps.cjs ./apps/source-maps.cjs
COPY deploy/docker/entrypoint.sh /usr/local/bin/owd
USER 10001:10001
ENTRYPOINT ["owd"]
