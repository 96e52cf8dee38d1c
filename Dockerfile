# The xiangqi-zero binary as a container image, for self-play workers and trainers that
# keep their run directory in an object store (docs/beyond-one-machine.md).
#
#   docker build -t xiangqi-zero .
#   docker run --rm -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -e AWS_REGION \
#     xiangqi-zero selfplay --run s3://BUCKET/runs/xiangqi-small
#
# Stage 1 builds the release binary with the toolchain the project is tested with;
# stage 2 is Debian slim with the binary, the shipped configs and the CA certificates
# the object stores' TLS needs, run as an unprivileged user.

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# The dependencies first, against a placeholder crate, so that a change to our own code
# rebuilds only our crate.
COPY Cargo.toml Cargo.lock build.rs ./
RUN mkdir -p src web && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && cargo build --release --locked \
    && rm -rf src target/release/.fingerprint/xiangqi-zero-*
COPY src src
COPY web web
COPY assets assets
RUN cargo build --release --locked --bin xiangqi-zero

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/xiangqi-zero /usr/local/bin/xiangqi-zero
COPY configs /opt/xiangqi-zero/configs
RUN useradd --uid 10001 --create-home xiangqi
USER xiangqi
WORKDIR /home/xiangqi
ENTRYPOINT ["xiangqi-zero"]
CMD ["--help"]
