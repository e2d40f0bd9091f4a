# syntax=docker/dockerfile:1
# Build: install with npm (Bun arrives as a dev dependency) and compile one executable
# (scripts/build.ts embeds our worker module and piscina's worker bootstrap in it).
# Node 22.15+: package.json's engines (@whatwg-node/* under graphql-yoga need it).
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# patches/: our fixes to dependencies, applied by npm's postinstall (patch-package)
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Run: the single executable and nothing else.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home /var/lib/breakline breakline \
 && mkdir -p /var/lib/breakline && chown breakline /var/lib/breakline
COPY --from=build /src/dist/breakline /usr/local/bin/breakline
USER breakline
ENV STATE_DIR=/var/lib/breakline PORT=3000 HOST=0.0.0.0
VOLUME ["/var/lib/breakline"]
EXPOSE 3000
# Healthy = ready (/readyz): the first boot on an empty volume creates the database and
# runs the first universe scan, so give it a start period before failures count.
HEALTHCHECK --start-period=90s --interval=30s --timeout=5s --retries=3 CMD ["/usr/local/bin/breakline", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/breakline"]
