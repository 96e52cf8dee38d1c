//! The browser test's harness: the real `serve` process, Chromium driven through
//! chromedriver (WebDriver), and waiting for what the page shows.

pub mod driver;
pub mod page;
pub mod process;
pub mod session;
