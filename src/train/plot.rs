//! PNG plots of a run's metrics, redrawn into the run's `plots/` after every generation
//! (and by `xiangqi-zero plot`): `losses.png`, `elo.png` and `selfplay.png`, or an NNUE
//! run's `nnue.png`.
//!
//! Drawn with plotters into an RGB buffer in memory, text in the DejaVu Sans font embedded
//! in the binary (no system font library needed), then encoded and written whole, so a
//! kill never leaves half a PNG. Any number of generations, none included, draws: an
//! empty plot shows its axes and a note saying what it is waiting for.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{register_font, FontStyle};

use super::metrics::{GenerationMetrics, LadderElo};
use super::nnue_metrics::NnueMetrics;
use crate::storage;

/// DejaVu Sans (licence: `assets/fonts/LICENSE-DejaVu.txt`), the font of every plot.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family name the font is registered under: plotters' default, so that every text
/// (legends included) finds it.
const FONT_FAMILY: &str = "sans-serif";

/// The lines' colours, in order (matplotlib's "tab10", first eight): distinct, and none
/// grey, so a series never passes for an axis or a grid line.
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Width and height of `losses.png` and `elo.png`, in pixels.
const SINGLE_SIZE: (u32, u32) = (1000, 600);

/// Width and height of `selfplay.png` (six panels), in pixels.
const PANELS_SIZE: (u32, u32) = (1200, 900);

/// Width and height of `nnue.png` (two panels side by side), in pixels.
const PAIR_SIZE: (u32, u32) = (1400, 600);

/// What a plot could not do.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The plot directory could not be created.
    #[error("cannot create the plot directory `{dir}`: {source}")]
    Dir {
        /// The plot directory.
        dir: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The embedded font was refused by the font renderer.
    #[error("the embedded font DejaVuSans.ttf could not be loaded")]
    Font,
    /// Drawing failed.
    #[error("cannot draw `{file}`: {message}")]
    Draw {
        /// The PNG being drawn.
        file: PathBuf,
        /// plotters' description of the failure.
        message: String,
    },
    /// The PNG could not be written.
    #[error("cannot write `{file}`: {source}")]
    Write {
        /// The PNG.
        file: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

/// Draws `losses.png`, `elo.png` and `selfplay.png` from a run's metrics into `dir`
/// (created if missing), each written atomically, and returns their paths.
///
/// - `losses.png`: total, policy and value loss against training hours.
/// - `elo.png`: the net's Elo on the run's ladder against training hours, its 95%
///   interval as error bars joined by a shaded band, each rung a flat line at its Elo (a
///   run evaluated without a ladder: one line per opponent, an infinite Elo drawn at the
///   edge with the match's score beside it, e.g. `0/20`). Before any evaluation the plot is
///   empty, with a note saying so.
/// - `selfplay.png`: per generation, simulations per second, mean game length, the share
///   of first-player wins, draws and second-player wins, value accuracy, policy entropy
///   and training samples per second; the bootstrap generations shaded.
///
/// Each plot names the run along its bottom edge (config, net shape, machine: the newest
/// generation's [`GenerationMetrics::setup`]).
pub fn draw_plots(metrics: &[GenerationMetrics], dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let setup = metrics.last().map_or("", |m| m.setup.as_str());
    write_pngs(
        dir,
        vec![
            ("losses.png", SINGLE_SIZE, vec![losses_panel(metrics)]),
            ("elo.png", SINGLE_SIZE, vec![elo_panel(metrics)]),
            ("selfplay.png", PANELS_SIZE, selfplay_panels(metrics)),
        ],
        setup,
    )
}

/// Draws an NNUE run's `nnue.png` from its metrics into `dir` (created if missing),
/// written atomically, and returns its path: on the left the strength its gates chain up
/// to (each accepted net's gate Elo added to the player it beat, the tables at 0; every
/// new net's gate with its 95% interval), on the right the training and held-out loss.
/// `setup` names the run along the bottom edge.
pub fn draw_nnue_plots(metrics: &[NnueMetrics], setup: &str, dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let mut current = 0.0;
    let (mut player, mut candidates) = (vec![(0.0, 0.0)], Line::plain("each new net at its gate", Vec::new()));
    for m in metrics {
        let x = m.generation as f64;
        if let Some((elo, low, high)) = m.gate_elo() {
            candidates.points.push((x, current + elo));
            candidates.band.push((x, current + low, current + high));
            if m.accepted {
                current += elo;
            }
        }
        player.push((x, current));
    }
    let gates = Panel {
        title: "Strength chained through the gates (Elo over the tables, 95% intervals)",
        x_desc: "generation",
        y_desc: "Elo (the hand-written tables = 0)",
        lines: vec![Line::plain("the current player", player), candidates],
        empty_note: "no generation yet",
        shade: None,
    };
    let loss = |label: &str, value: fn(&NnueMetrics) -> f64| {
        Line::plain(label, metrics.iter().map(|m| (m.generation as f64, value(m))).collect())
    };
    let losses = Panel {
        title: "Loss of each generation's fresh net",
        x_desc: "generation",
        y_desc: "squared error of the expected score",
        lines: vec![loss("training", |m| m.loss), loss("held out", |m| m.held_out_loss)],
        empty_note: "no generation yet",
        shade: None,
    };
    write_pngs(dir, vec![("nnue.png", PAIR_SIZE, vec![gates, losses])], setup)
}

/// Writes each `(name, size, panels)` PNG into `dir` (created if missing) with the
/// `setup` line under its charts; returns their paths.
fn write_pngs(dir: &Path, plots: Vec<(&str, (u32, u32), Vec<Panel>)>, setup: &str) -> Result<Vec<PathBuf>, PlotError> {
    if !FONT_REGISTERED.get_or_init(|| register_font(FONT_FAMILY, FontStyle::Normal, FONT).is_ok()) {
        return Err(PlotError::Font);
    }
    storage::create_dir(dir).map_err(|source| PlotError::Dir { dir: dir.to_path_buf(), source })?;
    plots
        .into_iter()
        .map(|(name, size, panels)| {
            let file = dir.join(name);
            write_png(&file, size, &panels, setup)?;
            Ok(file)
        })
        .collect()
}

/// Whether the embedded font was registered with plotters (done once per process).
static FONT_REGISTERED: OnceLock<bool> = OnceLock::new();

/// One line of a chart, with optional error bars and a shaded band joining them.
struct Line {
    /// The legend's text; empty for a chart's only line (its title says what it is).
    label: String,
    /// `(x, y)` points; a NaN `y` (not measured) is left out, ±∞ is drawn at the edge.
    points: Vec<(f64, f64)>,
    /// `(x, low, high)`: the error bar at each x; empty for none.
    band: Vec<(f64, f64, f64)>,
    /// `(x, text)`: a note written beside the point at x (a match score where the Elo is
    /// infinite, say); empty for none.
    notes: Vec<(f64, String)>,
    /// A reference level (a ladder's rung): drawn thin, without point marks.
    reference: bool,
}

impl Line {
    /// A line without error bars or notes.
    fn plain(label: impl Into<String>, points: Vec<(f64, f64)>) -> Line {
        Line { label: label.into(), points, band: Vec::new(), notes: Vec::new(), reference: false }
    }
}

/// A stretch of the x axis shaded and named, e.g. the bootstrap generations.
struct Shade {
    /// Where it starts and ends on the x axis.
    from: f64,
    /// See `from`.
    to: f64,
    /// Written at its top.
    label: String,
}

/// One chart: a title, axis descriptions and its lines.
struct Panel {
    /// The caption.
    title: &'static str,
    /// The x axis's description.
    x_desc: &'static str,
    /// The y axis's description.
    y_desc: &'static str,
    /// The lines, drawn in palette order.
    lines: Vec<Line>,
    /// Shown in the middle of the chart when no line has a point.
    empty_note: &'static str,
    /// A stretch of x shaded behind the lines.
    shade: Option<Shade>,
}

/// Loss components against training hours (of the generations that trained).
fn losses_panel(metrics: &[GenerationMetrics]) -> Panel {
    let line = |label: &str, value: fn(&GenerationMetrics) -> f64| {
        Line::plain(label, metrics.iter().filter(|m| m.train_steps > 0).map(|m| (m.hours, value(m))).collect())
    };
    Panel {
        title: "Training loss",
        x_desc: "training hours",
        y_desc: "loss",
        lines: vec![line("total", |m| m.loss), line("policy", |m| m.policy_loss), line("value", |m| m.value_loss)],
        empty_note: "no generation trained yet",
        shade: None,
    }
}

/// The net's Elo on the run's ladder against training hours, with the rungs as flat
/// lines at their own Elo; for a run evaluated without a ladder, one line per opponent.
fn elo_panel(metrics: &[GenerationMetrics]) -> Panel {
    let placed: Vec<(f64, &LadderElo)> =
        metrics.iter().filter_map(|m| m.ladder.as_ref().map(|ladder| (m.hours, ladder))).collect();
    let Some(&(_, last)) = placed.last() else { return opponents_panel(metrics) };
    let net = Line {
        label: "the net".to_string(),
        points: placed.iter().map(|&(hours, l)| (hours, l.placement.elo)).collect(),
        band: placed.iter().map(|&(hours, l)| (hours, l.placement.low, l.placement.high)).collect(),
        notes: Vec::new(),
        reference: false,
    };
    // The rungs span the whole run, from its start to the last evaluation.
    let (first_hour, last_hour) = (0.0, placed[placed.len() - 1].0);
    let rungs = last.rungs.iter().map(|rung| Line {
        reference: true,
        ..Line::plain(
            format!("{} ({:+.0})", rung.player, rung.elo),
            vec![(first_hour, rung.elo), (last_hour, rung.elo)],
        )
    });
    Panel {
        title: "Elo on the run's ladder (95% intervals)",
        x_desc: "training hours",
        y_desc: "Elo (first rung = 0)",
        lines: std::iter::once(net).chain(rungs).collect(),
        empty_note: "no evaluation yet",
        shade: None,
    }
}

/// Elo against training hours, one line per opponent in order of first appearance; a
/// match won or lost outright (an infinite Elo) is drawn at the edge and noted with its
/// score, e.g. `0/20`.
fn opponents_panel(metrics: &[GenerationMetrics]) -> Panel {
    let mut lines: Vec<Line> = Vec::new();
    for generation in metrics {
        for result in &generation.elo {
            let index = match lines.iter().position(|line| line.label == result.opponent) {
                Some(index) => index,
                None => {
                    lines.push(Line::plain(result.opponent.clone(), Vec::new()));
                    lines.len() - 1
                }
            };
            lines[index].points.push((generation.hours, result.elo));
            lines[index].band.push((generation.hours, result.low, result.high));
            if result.elo.is_infinite() {
                let points = 2 * result.wins + result.draws;
                let score = if points % 2 == 0 { format!("{}", points / 2) } else { format!("{}.5", points / 2) };
                lines[index].notes.push((generation.hours, format!("{score}/{}", result.games)));
            }
        }
    }
    Panel {
        title: "Elo against each opponent (95% intervals)",
        x_desc: "training hours",
        y_desc: "Elo difference",
        lines,
        empty_note: "no evaluation yet",
        shade: None,
    }
}

/// The six per-generation self-play and training panels of `selfplay.png`, the bootstrap
/// generations shaded. Their self-play speed (the material count's, a hundred times the
/// net's) is written in the shade rather than drawn, so the net's speed keeps its scale.
fn selfplay_panels(metrics: &[GenerationMetrics]) -> Vec<Panel> {
    let series = |value: &dyn Fn(&GenerationMetrics) -> f64| -> Vec<(f64, f64)> {
        metrics.iter().map(|m| (f64::from(m.generation), value(m))).collect()
    };
    let bootstrap: Vec<&GenerationMetrics> = metrics.iter().filter(|m| m.bootstrap).collect();
    let shade = |label: String| {
        let first = bootstrap.first()?;
        let last = bootstrap.last()?;
        Some(Shade { from: f64::from(first.generation) - 0.5, to: f64::from(last.generation) + 0.5, label })
    };
    let single = |title, y_desc, value: fn(&GenerationMetrics) -> f64| Panel {
        title,
        x_desc: "generation",
        y_desc,
        lines: vec![Line::plain("", series(&value))],
        empty_note: "no generation yet",
        shade: shade("bootstrap".to_string()),
    };
    let share = |label: &str, count: fn(&GenerationMetrics) -> u64| {
        Line::plain(
            label,
            series(&|m| {
                let total = m.first_wins + m.draws + m.second_wins;
                // 0/0 is NaN: a generation without games has no point.
                100.0 * count(m) as f64 / total as f64
            }),
        )
    };
    let mut bootstrap_speeds: Vec<f64> = bootstrap.iter().map(|m| m.simulations_per_second).collect();
    bootstrap_speeds.sort_by(f64::total_cmp);
    let speed = Panel {
        title: "Self-play speed",
        x_desc: "generation",
        y_desc: "simulations / s",
        lines: vec![Line::plain("", series(&|m| if m.bootstrap { f64::NAN } else { m.simulations_per_second }))],
        empty_note: "no net generation yet",
        shade: bootstrap_speeds
            .get(bootstrap_speeds.len() / 2)
            .and_then(|median| shade(format!("bootstrap: {} sims/s", tick_label(median.round())))),
    };
    vec![
        speed,
        single("Game length", "mean plies", |m| m.mean_game_plies),
        Panel {
            title: "Game results",
            x_desc: "generation",
            y_desc: "% of games",
            lines: vec![
                share("first player wins", |m| m.first_wins),
                share("draws", |m| m.draws),
                share("second player wins", |m| m.second_wins),
            ],
            empty_note: "no generation yet",
            shade: shade("bootstrap".to_string()),
        },
        single("Value accuracy", "share of samples", |m| m.value_accuracy),
        single("Policy entropy", "nats", |m| m.policy_entropy),
        single("Training speed", "samples / s", |m| m.train_samples_per_second),
    ]
}

/// Draws `panels` (one, or two to six in rows of two) and the `setup` line under them into
/// an RGB buffer and writes it to `file` as a PNG, whole.
fn write_png(file: &Path, (width, height): (u32, u32), panels: &[Panel], setup: &str) -> Result<(), PlotError> {
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    draw_panels(&mut pixels, (width, height), panels, setup)
        .map_err(|error| PlotError::Draw { file: file.to_path_buf(), message: error.to_string() })?;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // A plot is mostly flat colour: per-row filters and the best deflate make it a few
    // tens of kilobytes rather than hundreds.
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    encoder.set_compression(png::Compression::Best);
    let encoded = (|| {
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
        writer.finish()
    })();
    encoded
        .map_err(io::Error::from)
        .and_then(|()| storage::write(file, &bytes))
        .map_err(|source| PlotError::Write { file: file.to_path_buf(), source })
}

/// Height of the line naming the run under the charts, in pixels.
const SETUP_LINE_HEIGHT: u32 = 24;

/// Draws `panels` on a white background into `pixels`, with the `setup` line (when not
/// empty) along the bottom.
fn draw_panels<'a>(
    pixels: &'a mut [u8],
    size: (u32, u32),
    panels: &[Panel],
    setup: &str,
) -> DrawResult<(), BitMapBackend<'a>> {
    let root = BitMapBackend::with_buffer(pixels, size).into_drawing_area();
    root.fill(&WHITE)?;
    let charts = if setup.is_empty() {
        root.clone()
    } else {
        let (charts, line) = root.split_vertically(size.1 - SETUP_LINE_HEIGHT);
        let style = (FONT_FAMILY, 14).into_font().color(&BLACK.mix(0.7)).pos(Pos::new(HPos::Left, VPos::Center));
        line.draw(&Text::new(setup, (12, SETUP_LINE_HEIGHT as i32 / 2), style))?;
        charts
    };
    let areas =
        if panels.len() == 1 { vec![charts.clone()] } else { charts.split_evenly((panels.len().div_ceil(2), 2)) };
    for (area, panel) in areas.iter().zip(panels) {
        draw_panel(area, panel)?;
    }
    root.present()
}

/// The corner of the chart around `centre` whose quarter holds the fewest of the measured
/// lines' points and interval ends (reference lines run the whole width, so they do not
/// count), for the legend to hide as little as it can; the upper right on a tie.
fn legend_corner(panel: &Panel, (x_mid, y_mid): (f64, f64)) -> SeriesLabelPosition {
    let marks: Vec<(f64, f64)> = panel
        .lines
        .iter()
        .filter(|line| !line.reference)
        .flat_map(|line| {
            line.points.iter().copied().chain(line.band.iter().flat_map(|&(x, low, high)| [(x, low), (x, high)]))
        })
        .filter(|(_, y)| !y.is_nan())
        .collect();
    let in_corner = |right: bool, upper: bool| {
        marks.iter().filter(|&&(x, y)| (x >= x_mid) == right && (y >= y_mid) == upper).count()
    };
    [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ]
    .into_iter()
    .min_by_key(|&(_, right, upper)| in_corner(right, upper))
    .map(|(corner, _, _)| corner)
    .expect("four corners")
}

/// Draws one chart into `area`.
fn draw_panel<'a>(area: &DrawingArea<BitMapBackend<'a>, Shift>, panel: &Panel) -> DrawResult<(), BitMapBackend<'a>> {
    // NaN is a value not measured, left out; ±∞ is drawn at the chart's edge.
    let measured = || panel.lines.iter().flat_map(|line| &line.points).filter(|(_, y)| !y.is_nan());
    let shade_ends = panel.shade.iter().flat_map(|shade| [shade.from, shade.to]);
    let x_range = span(measured().map(|&(x, _)| x).chain(shade_ends));
    let band_ends = panel.lines.iter().flat_map(|line| &line.band).flat_map(|&(_, low, high)| [low, high]);
    let y_range = span(measured().map(|&(_, y)| y).chain(band_ends));
    let clamp_y = |y: f64| y.clamp(y_range.0, y_range.1);
    let centre = ((x_range.0 + x_range.1) / 2.0, (y_range.0 + y_range.1) / 2.0);

    let mut chart = ChartBuilder::on(area)
        .caption(panel.title, (FONT_FAMILY, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range.0..x_range.1, y_range.0..y_range.1)?;
    chart
        .configure_mesh()
        .x_desc(panel.x_desc)
        .y_desc(panel.y_desc)
        .x_label_formatter(&|x| tick_label(*x))
        .y_label_formatter(&|y| tick_label(*y))
        .label_style((FONT_FAMILY, 13))
        .axis_desc_style((FONT_FAMILY, 14))
        .draw()?;

    if let Some(shade) = &panel.shade {
        let corners = [(shade.from, y_range.1), (shade.to, y_range.0)];
        chart.draw_series(std::iter::once(Rectangle::new(corners, BLACK.mix(0.07).filled())))?;
        let style = (FONT_FAMILY, 13).into_font().color(&BLACK.mix(0.6)).pos(Pos::new(HPos::Left, VPos::Top));
        chart
            .plotting_area()
            .draw(&(EmptyElement::at((shade.from, y_range.1)) + Text::new(shade.label.clone(), (4, 4), style)))?;
    }

    let mut labelled = false;
    for (index, line) in panel.lines.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let points: Vec<(f64, f64)> =
            line.points.iter().filter(|(_, y)| !y.is_nan()).map(|&(x, y)| (x, clamp_y(y))).collect();
        if points.is_empty() {
            continue;
        }
        let band: Vec<(f64, f64, f64)> = line
            .band
            .iter()
            .filter(|(_, low, high)| !low.is_nan() && !high.is_nan())
            .map(|&(x, low, high)| (x, clamp_y(low), clamp_y(high)))
            .collect();
        let outline = band.iter().map(|&(x, low, _)| (x, low)).chain(band.iter().rev().map(|&(x, _, high)| (x, high)));
        chart.draw_series(std::iter::once(Polygon::new(outline.collect::<Vec<_>>(), colour.mix(0.15).filled())))?;
        chart.draw_series(band.iter().map(|&(x, low, high)| PathElement::new(vec![(x, low), (x, high)], colour)))?;
        let width = if line.reference { 1 } else { 2 };
        let drawn = chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(width)))?;
        if !line.label.is_empty() {
            labelled = true;
            drawn
                .label(line.label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(width)));
        }
        // Each line's notes a row apart, so that scores at one edge do not overwrite each other.
        let row = 14 * (index % 4) as i32;
        for (x, note) in &line.notes {
            if let Some(&point) = points.iter().find(|(px, _)| px == x) {
                let style = (FONT_FAMILY, 13).into_font().color(&colour).pos(Pos::new(HPos::Left, VPos::Center));
                chart.plotting_area().draw(&(EmptyElement::at(point) + Text::new(note.clone(), (6, -row), style)))?;
            }
        }
        if !line.reference {
            chart.draw_series(points.into_iter().map(|point| Circle::new(point, 3, colour.filled())))?;
        }
    }

    if labelled {
        chart
            .configure_series_labels()
            .label_font((FONT_FAMILY, 14))
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(legend_corner(panel, centre))
            .draw()?;
    }
    if measured().next().is_none() {
        let style = (FONT_FAMILY, 22).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Center));
        chart.plotting_area().draw(&Text::new(panel.empty_note, centre, style))?;
    }
    Ok(())
}

/// The range of the finite `values`, padded by 5% each side; a single value gets ±10% of
/// itself (at least ±0.1) and no value at all gives [0, 1], so a chart always has a range
/// to draw on.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (low, high) = values
        .filter(|value| value.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), value| (low.min(value), high.max(value)));
    if low > high {
        return (0.0, 1.0);
    }
    let width = high - low;
    if width <= f64::EPSILON * high.abs().max(1.0) {
        let pad = (0.1 * high.abs()).max(0.1);
        return (low - pad, high + pad);
    }
    (low - 0.05 * width, high + 0.05 * width)
}

/// A tick's label: at most four decimals, without trailing zeros (`1600`, `0.58`).
fn tick_label(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chart of one measured line over `points`, with a reference level across it.
    fn panel_of(points: Vec<(f64, f64)>) -> Panel {
        let reference = Line { reference: true, ..Line::plain("rung", vec![(0.0, 0.0), (2.0, 0.0)]) };
        Panel {
            title: "t",
            x_desc: "x",
            y_desc: "y",
            lines: vec![Line::plain("net", points), reference],
            empty_note: "",
            shade: None,
        }
    }

    #[test]
    fn the_legend_goes_to_the_emptiest_corner() {
        let centre = (1.0, 0.0);
        let rising = panel_of(vec![(0.2, 0.1), (1.0, 0.5), (1.5, 0.7), (1.9, 0.9)]);
        assert!(matches!(legend_corner(&rising, centre), SeriesLabelPosition::LowerRight));
        let high_then_low = panel_of(vec![(0.1, 0.9), (0.5, 0.5), (1.5, 0.8), (1.2, -0.6), (1.9, -0.9)]);
        assert!(matches!(legend_corner(&high_then_low, centre), SeriesLabelPosition::LowerLeft));
        let level = panel_of(vec![(0.5, 0.5), (1.5, 0.5), (0.5, -0.5), (1.5, -0.5)]);
        assert!(
            matches!(legend_corner(&level, centre), SeriesLabelPosition::UpperRight),
            "a tie keeps the upper right"
        );
    }
}
