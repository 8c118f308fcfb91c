# Codetally in a container: the same steps CI tests (npm ci, npm run build, then the standalone
# output run by node server.js, which migrates and serves). Data lives in /data (the embedded
# database) unless DATABASE_URL names a PostgreSQL; see README, "Deploy".
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The install applies the dependencies' patches (patches/, by patch-package: a postinstall step)
# and builds the reference client (client/, an npm workspace).
COPY package.json package-lock.json ./
COPY patches patches/
COPY client client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
COPY --from=build --chown=node:node /app/.next/standalone ./
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/main/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: the server stops taking connections, finishes requests in flight, then exits.
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]
