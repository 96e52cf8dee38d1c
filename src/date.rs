//! UTC calendar dates of Unix times, as records and net files write them, without a
//! time-zone library.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` in UTC as ISO 8601, to the second: `2025-01-31T12:00:00Z`.
pub fn utc_timestamp(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let of_day = seconds % 86_400;
    format!("{}T{:02}:{:02}:{:02}Z", pgn_date(seconds).replace('.', "-"), of_day / 3600, of_day / 60 % 60, of_day % 60)
}

/// The UTC date of `unix_seconds` as PGN writes dates: `YYYY.MM.DD`.
pub fn pgn_date(unix_seconds: u64) -> String {
    // Howard Hinnant's days-to-civil, for the proleptic Gregorian calendar.
    let days = (unix_seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Now, in seconds since the Unix epoch (0 on a clock set before it).
pub fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
