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
