# The passport server with the web, sso and app-webview apps it serves (docs/deploying.md).
#   docker build -t portico .
#   docker run -p 3000:3000 -e PUBLIC_ORIGIN=https://passport.example.com -e SECRET=… \
#     -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… portico
# Without DATABASE_URL it keeps SQLite in /data: mount a volume there, and run one container only.

FROM node:24.21.0-bookworm-slim AS build
# The pinned pnpm of package.json's packageManager, from the npm registry.
RUN npm install --global pnpm@12.21.0
WORKDIR /portico
# The dependencies first, from the lockfile alone: this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm exec turbo run build --filter=@portico/passport-server --filter=@portico/web \
      --filter=@portico/sso --filter=@portico/app-webview --output-logs=errors-only
# What runs needs no build tools: drop the development dependencies.
RUN CI=true pnpm install --frozen-lockfile --offline --prod

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /portico
COPY --from=build --chown=node:node /portico /portico
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Liveness only: a database outage must not get every container restarted (point your balancer's
# readiness check at /readyz instead).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself is PID 1 and handles SIGTERM: it stops taking requests, finishes those in flight, closes
# the database and the store, and exits 0. Give it a stop grace period longer than your slowest request.
STOPSIGNAL SIGTERM
CMD ["node", "apps/passport-server/dist/main.js"]
