//! What the test does to and reads from the page: clicks and hovers by CSS selector,
//! JavaScript conditions waited for (with the page's status line in the failure),
//! screenshots.

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long a condition or an element is waited for: long enough for an engine's reply
/// on a machine busy with a build and a training run beside the test (20 s was not).
const PATIENCE: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(100);

/// Where the screenshots go: `target/browser-screenshots/`.
pub fn screenshot_dir() -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().expect("CARGO_TARGET_TMPDIR lies inside the target directory").join("browser-screenshots")
}

/// The page in one browser session.
pub struct Page<'a> {
    /// The WebDriver session.
    pub client: &'a Client,
}

impl Page<'_> {
    /// Runs `expression` (JavaScript) in the page and returns its value.
    pub async fn eval(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return ({expression});"), vec![])
            .await
            .unwrap_or_else(|e| panic!("evaluating `{expression}` failed: {e}"))
    }

    /// Waits until `condition` (JavaScript) is true; fails naming `what` and the status line,
    /// leaving `failure.png` among the screenshots.
    pub async fn wait_for(&self, what: &str, condition: &str) {
        let started = Instant::now();
        while self.eval(condition).await != Value::Bool(true) {
            if started.elapsed() > PATIENCE {
                let status = self.eval("(document.getElementById('status') || {}).textContent || ''").await;
                let toasts = self.eval("(document.getElementById('toasts') || {}).textContent || ''").await;
                let shot = self.screenshot("failure").await;
                panic!(
                    "timed out waiting for {what} ({condition}); status line: {status}; messages: {toasts}; \
                     screenshot: {}",
                    shot.display()
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Resizes the window so that the page's viewport is `width`×`height` CSS pixels,
    /// waiting for the page to see it. The window is taller than the page by a frame
    /// (room for a toolbar, even headless); across, the page takes the width asked for
    /// even where the window keeps a minimum width.
    pub async fn set_viewport(&self, width: u32, height: u32) {
        let frame = self.eval("window.outerHeight - window.innerHeight").await;
        let frame = frame.as_u64().expect("the frame's height") as u32;
        self.client.set_window_size(width, height + frame).await.expect("the window resizes");
        self.wait_for(
            &format!("a {width}×{height} viewport"),
            &format!("window.innerWidth === {width} && window.innerHeight === {height}"),
        )
        .await;
    }

    /// Clicks the element matching the CSS `selector`, waiting for it to be there.
    pub async fn click(&self, selector: &str) {
        let element = self
            .client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(selector))
            .await
            .unwrap_or_else(|e| panic!("no element `{selector}` to click: {e}"));
        element.click().await.unwrap_or_else(|e| panic!("clicking `{selector}` failed: {e}"));
    }

    /// Moves the mouse onto the middle of the element matching `selector` (a hover).
    pub async fn hover(&self, selector: &str) {
        let found = self.client.find(Locator::Css(selector)).await;
        let element = found.unwrap_or_else(|e| panic!("no element `{selector}` to hover over: {e}"));
        let onto = PointerAction::MoveToElement { element, duration: None, x: 0.0, y: 0.0 };
        let mouse = MouseActions::new("mouse".to_string()).then(onto);
        self.client.perform_actions(mouse).await.unwrap_or_else(|e| panic!("hovering over `{selector}` failed: {e}"));
    }

    /// The text of the element matching `selector`.
    pub async fn text(&self, selector: &str) -> String {
        let found = self.client.find(Locator::Css(selector)).await;
        let element = found.unwrap_or_else(|e| panic!("no element `{selector}`: {e}"));
        element.text().await.unwrap_or_else(|e| panic!("no text for `{selector}`: {e}"))
    }

    /// Saves a PNG of the window as `target/browser-screenshots/<name>.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot of the page");
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("the screenshot directory can be made");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot can be written");
        path
    }
}
