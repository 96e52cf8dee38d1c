//! Headless Chromium under chromedriver, as a fantoccini WebDriver client.

use super::process::{free_port, on_path, Listening};
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;

/// Set to 1 to make the browser test fail, not skip, where Chromium is missing (CI's
/// `CI=true` does the same).
pub const REQUIRE_VARIABLE: &str = "XZ_REQUIRE_BROWSER_TEST";

/// Whether a missing Chromium fails the test: under CI (`CI=true`) or when
/// [`REQUIRE_VARIABLE`] is 1.
pub fn browser_required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") || std::env::var(REQUIRE_VARIABLE).as_deref() == Ok("1")
}

/// Chromium's and chromedriver's paths, or the one-line reason they are missing.
pub fn find_browser() -> Result<(PathBuf, PathBuf), String> {
    let chromium = on_path(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = on_path(&["chromedriver"]);
    match (chromium, driver) {
        (Some(chromium), Some(driver)) => Ok((chromium, driver)),
        _ => Err("Chromium/chromedriver not found — `apt-get install -y chromium chromium-driver`".to_string()),
    }
}

/// A headless Chromium session; chromedriver stops when it is dropped.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    _driver: Listening,
}

impl Browser {
    /// Starts chromedriver and opens a headless Chromium window of `width`×`height`.
    pub async fn start(chromium: &std::path::Path, chromedriver: &std::path::Path, width: u32, height: u32) -> Browser {
        let port = free_port();
        let mut command = Command::new(chromedriver);
        command.arg(format!("--port={port}"));
        if let Some(fonts) = latin_fonts_only() {
            command.env("FONTCONFIG_FILE", fonts);
        }
        let driver = Listening::start(command, port);
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--hide-scrollbars", format!("--window-size={width},{height}")],
            }
        });
        let serde_json::Value::Object(capabilities) = capabilities else { unreachable!("an object literal") };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session with headless Chromium");
        Browser { client, _driver: driver }
    }
}

/// Where DejaVu's fonts lie on Debian: the only fonts the browser is shown.
const LATIN_FONTS: &str = "/usr/share/fonts/truetype/dejavu";

/// A fontconfig file that shows the browser DejaVu's fonts alone (with the system's rules,
/// so that `sans-serif` is still DejaVu Sans), so that the page is
/// tested as on a machine without CJK fonts whatever this one has installed (the page
/// ships its own Chinese characters); `None` where DejaVu is not installed there.
fn latin_fonts_only() -> Option<PathBuf> {
    if !std::path::Path::new(LATIN_FONTS).is_dir() {
        return None;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("fonts-latin-only.conf");
    let cache = dir.join("fontconfig-cache");
    let config = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n  <dir>{LATIN_FONTS}</dir>\n  <include ignore_missing=\"yes\">/etc/fonts/conf.d</include>\n  <cachedir>{}</cachedir>\n</fontconfig>\n",
        cache.display()
    );
    std::fs::write(&file, config).expect("a fontconfig file in the target directory");
    Some(file)
}
