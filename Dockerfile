# svc in a container: build with the dev dependencies, prune to the production ones, run as a
# non-root user with the data directory on a volume. docs/deploy.md explains the options;
# .ci/prod-tree runs the same build steps (npm ci, build, prune) outside Docker and starts the result.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary matches the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --no-audit --no-fund
COPY . .
# The commit the image is built from (the context has no .git): `--build-arg SVC_COMMIT=$(git rev-parse HEAD)`.
ARG SVC_COMMIT=""
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SVC_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/public ./dist/public
# The image's `node` user (uid 1000) owns only the data directory: the code stays read-only to it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "dist/src/main.js"]
