# syntax=docker/dockerfile:1
# Build: install with npm (Bun arrives as a dev dependency) and compile one executable.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Run: the single binary and nothing else.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home /var/lib/breakline breakline \
 && mkdir -p /var/lib/breakline && chown breakline /var/lib/breakline
COPY --from=build /src/dist/breakline /usr/local/bin/breakline
# piscina starts each worker through its own worker.js, whose build-time path the
# bundler fixes (/src/node_modules/piscina/dist); our worker module itself is
# embedded in the binary. worker.js needs only node: built-ins and its siblings.
COPY --from=build /src/node_modules/piscina/dist /src/node_modules/piscina/dist
USER breakline
ENV STATE_DIR=/var/lib/breakline PORT=3000 HOST=0.0.0.0
VOLUME ["/var/lib/breakline"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD ["/usr/local/bin/breakline", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/breakline"]
