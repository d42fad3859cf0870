# syntax=docker/dockerfile:1
# The sitechat CLI as an image: `sitechat worker` (default), `sitechat sim`, `sitechat run …`, `sitechat schedule …`.
# No Temporal CLI inside: containers talk to a real Temporal server through TEMPORAL_ADDRESS (see docker-compose.yml).

# ---- build: install with dev dependencies, compile TypeScript, then drop the dev dependencies ----
FROM node:20-slim AS build
WORKDIR /app
# `npm ci` runs the package's `prepare` script (build + Temporal CLI provisioning); provisioning is skipped here.
ENV SITECHAT_SKIP_TEMPORAL_PROVISION=1 \
    npm_config_fund=false \
    npm_config_audit=false
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY bench ./bench
RUN --mount=type=cache,target=/root/.npm npm ci \
 && npm prune --omit=dev

# ---- runtime: compiled code, production dependencies, the demo knowledge base and datasets ----
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
    SITECHAT_RUNS_DIR=/data/runs
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY datasets ./datasets
# /data/runs holds this container's report files and judge cache (results live in the PostgreSQL store when
# SITECHAT_STORE_URL is set, as in docker-compose.yml; else here, on a volume every worker must share);
# /data/datasets is where compose mounts datasets for the cli. Created here so a fresh volume is owned by `node`.
RUN mkdir -p /data/runs /data/datasets && chown -R node:node /data \
 && ln -s /app/dist/src/cli/main.js /usr/local/bin/sitechat && chmod +x /app/dist/src/cli/main.js
USER node
VOLUME ["/data"]
ENTRYPOINT ["sitechat"]
CMD ["worker"]
