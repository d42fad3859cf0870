# syntax=docker/dockerfile:1
# The sitechat CLI as an image: `sitechat worker` (default), `sitechat sim`, `sitechat run …`, `sitechat schedule …`.
# No Temporal CLI inside: containers talk to a real Temporal server through TEMPORAL_ADDRESS (see docker-compose.yml).

# ---- build: install with dev dependencies, compile TypeScript, then drop the dev dependencies ----
# Node 24 LTS (Node 20 reached end of life in April 2026; the tests run on 20 and 24).
FROM node:24-slim AS build
WORKDIR /app
# `npm ci` runs the package's `prepare` script (build + Temporal CLI provisioning); provisioning is skipped here.
# The build context has no .git: the commit reports name comes from the build argument
# (docker build --build-arg SITECHAT_COMMIT=$(git rev-parse HEAD) .), else "unknown".
ARG SITECHAT_COMMIT=
ENV SITECHAT_BUILD_COMMIT=$SITECHAT_COMMIT \
    SITECHAT_SKIP_TEMPORAL_PROVISION=1 \
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
FROM node:24-slim
WORKDIR /app
# Node 24 sizes V8's young generation from the machine's memory (64 MiB semi-spaces on 24 GiB); a busy worker filled
# it, 128 MiB per heap. 16 MiB (Node 20's size) kept the 10,000-row scale run at 356 MiB instead of 464 MiB, at the
# same speed (CHANGELOG.md, "Worker memory"). The worker sets it for its workflow thread itself; this sets it for
# the main thread, which only the command line can. MALLOC_ARENA_MAX=2: glibc's per-thread malloc arenas held about
# 100 MiB of a busy worker; with two, the scale run peaked 15–89 MiB lower (CHANGELOG.md, "Worker memory
# at scale, again"). `sitechat worker` restarts itself with both when they are missing; set here, the CLI has them too.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=16 \
    MALLOC_ARENA_MAX=2 \
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
