//! The page's files, embedded in the binary at build time (listed by `build.rs`).

/// Every file under `web/`: its path there and its bytes.
const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The file at `path` under `web/` with its content type, if embedded.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let (_, bytes) = FILES.iter().find(|(name, _)| *name == path)?;
    Some((content_type(path), bytes))
}

/// The content type a file's extension calls for.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
