# One image for every service. Node 24 runs the TypeScript sources directly (type
# stripping): the image is the workspace's sources plus its production dependencies,
# and the web console's bundle (the only build step).
#
#   docker build -t skiptrace/skiptrace:1.0.0 .                       # standalone (default)
#   docker build --build-arg SERVICE=gateway -t skiptrace/gateway .   # one service
#
# SERVICE only sets the default; any image runs any service with
# `-e SKIPTRACE_SERVICE=worker` or by overriding the command
# (`node services/worker/src/main.ts`), which is what the k8s manifests do.

ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS base
# pnpm at the version pinned in package.json ("packageManager"): the image's own when it
# carries one (scripts/local-images.sh's skiptrace-local/node:24 has pnpm and no corepack),
# otherwise from corepack (the official image).
# COREPACK_INTEGRITY_KEYS=0: corepack's bundled signing keys lag pnpm releases.
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    COREPACK_INTEGRITY_KEYS=0 \
    CI=true
RUN command -v pnpm >/dev/null 2>&1 || corepack enable
WORKDIR /app

FROM base AS deps
# EXTRA_CA_CERTS: PEM certificates to trust for the package registry (a TLS-inspecting
# egress proxy's CA), used by this stage only; nothing of it reaches the final image.
# scripts/compose-build.sh passes the host's /usr/local/share/ca-certificates/*.crt.
ARG EXTRA_CA_CERTS=""
# Only the lockfile and manifests: this layer is reused until dependencies change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" > /tmp/extra-ca.pem; \
      export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && pnpm fetch --prod \
 && rm -f /tmp/extra-ca.pem

FROM deps AS prod
COPY . .
# --prod: the root's devDependencies (jest, swc, eslint, typescript …) stay out.
# Workspace packages are symlinks to packages/*, so their .ts sources are outside
# node_modules, where Node's type stripping is allowed to run them.
RUN pnpm install --offline --frozen-lockfile --prod
# The web console is built here: at run time the sources are read-only to the service user.
RUN node packages/console/src/build-cli.ts

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE=standalone
ENV NODE_ENV=production \
    SKIPTRACE_SERVICE=${SERVICE} \
    SKIPTRACE_DATA_DIR=/data
WORKDIR /app
# Sources and dependencies stay root-owned and read-only to the service user.
COPY --from=prod /app /app
# /data is only used by the standalone mode (PGlite, keys, demo credentials).
RUN mkdir -p /data && chown 1000:1000 /data
# The image's "node" user, numerically, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 8081 8082 8083
# Default ports: gateway/standalone 8080, auth 8081, worker 8082, dispatcher 8083;
# PORT overrides. Liveness only: readiness (/readyz) is for the orchestrator.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const d={gateway:8080,standalone:8080,auth:8081,worker:8082,dispatcher:8083};const p=process.env.PORT||d[process.env.SKIPTRACE_SERVICE]||8080;fetch('http://127.0.0.1:'+p+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec: node is PID 1 and receives SIGTERM itself; every main.ts drains on it.
# --max-semi-space-size=16: V8's young generation otherwise grows to 128 MiB per process under
# allocation-heavy work (batch upload, chunks, export), most of a process's resident memory
# beyond its live set; 16 MiB semi-spaces cap it at 32 MiB (docs/benchmarks.md, peak RSS).
CMD ["/bin/sh", "-c", "exec node --max-semi-space-size=16 \"services/${SKIPTRACE_SERVICE}/src/main.ts\""]
