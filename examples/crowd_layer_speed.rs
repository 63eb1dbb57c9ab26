//! The crowd layer's CPU work without a window: `steerlab frames --agents N`'s crowd on the
//! compare track after 2 simulated seconds, seen as the window sees it (1280×800, the world in
//! the free area right of the side panel and above the metrics table), turned into sprites and
//! rasterised again and again: stamped (the window's way, the stamps cached from frame to frame;
//! the first frame, which builds them, is timed apart) and, for comparison, shape by shape (the
//! exact rasteriser) in the region and over the whole screen.
//!
//! `cargo run --release --example crowd_layer_speed [N…]` prints, per crowd size, the on-CPU
//! time of all the process's threads (`bench::process_cpu_ns`, so the rayon workers count
//! too) and the wall-clock time per frame of both parts, with the layer's region. On-CPU time
//! moves much less than wall-clock time when other work shares the cores; under
//! `valgrind --tool=callgrind` (one size, e.g. `10000`) the instruction counts repeat exactly;
//! `--stamped-only` leaves out the shape-by-shape runs (and `--frames F` sets the frame count).
//! It also prints a hash of the stamped layer's bytes (FNV-1a), so that a change to the
//! rasteriser can be checked to draw the same pixels, bit for bit.

use std::time::Instant;

use steerlab::app::App;
use steerlab::render::{self, crowd};

fn process_cpu_ns() -> u64 {
    steerlab::bench::process_cpu_ns().unwrap_or(0)
}

/// FNV-1a over `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stamped_only = args.iter().any(|a| a == "--stamped-only");
    let frames_arg =
        args.iter().position(|a| a == "--frames").and_then(|i| args.get(i + 1)?.parse::<usize>().ok());
    let sizes: Vec<usize> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| frames_arg.is_none() || args.get(i.wrapping_sub(1)).is_none_or(|a| a != "--frames"))
        .filter_map(|(_, a)| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() { vec![1_000, 10_000, 100_000] } else { sizes };
    let base = match steerlab::scene::load_scene(std::path::Path::new("scenes/compare.json")) {
        Ok(world) => world,
        Err(err) => {
            eprintln!("error: {err} (run from the repository's root)");
            std::process::exit(2);
        }
    };
    for n in sizes {
        let mut app = App::new(steerlab::bench::crowd_world(base.clone(), n), None);
        let screen = glam::Vec2::new(1280.0, 800.0);
        app.camera.set_screen(screen, (glam::Vec2::new(340.0, 45.0), glam::Vec2::new(1280.0, 493.0)));
        app.fit_view();
        for _ in 0..120 {
            app.step_once();
        }
        let frames = frames_arg.unwrap_or((2_000_000 / n).clamp(5, 200)).max(1);
        let mut image = Vec::new();
        let mut stamps = crowd::StampCache::new();
        let (mut sprite_cpu, mut raster_cpu, mut sprite_wall, mut raster_wall) = (0u64, 0u64, 0.0, 0.0);
        let (mut exact_cpu, mut screen_cpu) = (0u64, 0u64);
        let mut region = None;
        let mut stamped_hash = 0u64;
        // The first frame builds the stamps it needs.
        let sprites = render::crowd_sprites(&app);
        let cpu = process_cpu_ns();
        if let Some(region) = crowd::layer_region(&sprites, app.camera.viewport, screen) {
            crowd::rasterise_region(&mut image, region, &sprites, &mut stamps);
        }
        let first_cpu = process_cpu_ns() - cpu;
        for _ in 0..frames {
            let (cpu, wall) = (process_cpu_ns(), Instant::now());
            let sprites = render::crowd_sprites(&app);
            sprite_cpu += process_cpu_ns() - cpu;
            sprite_wall += wall.elapsed().as_secs_f64();
            let (cpu, wall) = (process_cpu_ns(), Instant::now());
            region = crowd::layer_region(&sprites, app.camera.viewport, screen);
            if let Some(region) = region {
                crowd::rasterise_region(&mut image, region, &sprites, &mut stamps);
            }
            raster_cpu += process_cpu_ns() - cpu;
            raster_wall += wall.elapsed().as_secs_f64();
            if stamped_only {
                continue;
            }
            stamped_hash = fnv1a(&image);
            // Shape by shape, in the region and over the whole screen.
            let cpu = process_cpu_ns();
            if let Some(region) = region {
                crowd::rasterise_region_exact(&mut image, region, &sprites);
            }
            exact_cpu += process_cpu_ns() - cpu;
            let cpu = process_cpu_ns();
            crowd::rasterise_exact(&mut image, 1280, 800, &sprites);
            screen_cpu += process_cpu_ns() - cpu;
        }
        if stamped_only {
            stamped_hash = fnv1a(&image);
        }
        let per_frame = |ns: u64| ns as f64 / frames as f64 / 1e6;
        println!(
            "{n} agents: sprites {:.2} ms on-CPU ({:.2} ms wall), stamped {:.2} ms on-CPU ({:.2} ms wall) a frame ({} stamps, the first frame {:.2} ms; image hash {stamped_hash:016x}); shape by shape {:.2} ms, the whole screen {:.2} ms on-CPU; region {region:?}",
            per_frame(sprite_cpu),
            sprite_wall * 1e3 / frames as f64,
            per_frame(raster_cpu),
            raster_wall * 1e3 / frames as f64,
            stamps.stamps(),
            first_cpu as f64 / 1e6,
            per_frame(exact_cpu),
            per_frame(screen_cpu),
        );
    }
}
