//! Reading recorded Xiangqi games for the commands that measure players on them.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};

use xiangqi_zero::records::GameRecord;

/// Every game of the `games.jsonl` files at `paths`, which must all be Xiangqi games;
/// `command` names the command in the error for another game's record.
pub fn read_xiangqi_records(paths: &[PathBuf], command: &str) -> anyhow::Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    for path in paths {
        let text =
            xiangqi_zero::text_file::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            let record = GameRecord::from_json_line(line).map_err(|e| anyhow!("{}:{}: {e}", path.display(), i + 1))?;
            if record.game != "xiangqi" {
                bail!("{}:{}: a {} game; {command} reads Xiangqi games", path.display(), i + 1, record.game);
            }
            records.push(record);
        }
    }
    Ok(records)
}
