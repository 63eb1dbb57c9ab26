//! Expressions that used to abort, hang or slip through as non-finite: long and deep ones (exmex's
//! symbolic derivative recursed once per term and overflowed the stack), expressions that are not
//! finite over their range, and scientific notation. Each is checked through `Curve::new`, the
//! scene loader and the curve editor's validation (the path the window's editor uses).

use steerlab::geometry::curve::{MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LEN};
use steerlab::geometry::{Curve, CurveError, CurveKind};
use steerlab::scene::parse_scene;
use steerlab::ui::curve_editor::validate_expr_curve;

fn expr(x: &str, t_min: f32, t_max: f32) -> Result<Curve, CurveError> {
    Curve::new(CurveKind::Expr { x: x.into(), y: "0".into(), z: String::new(), t_min, t_max })
}

fn scene_with_x(x: &str, t_min: f32, t_max: f32) -> String {
    let x = serde_json::to_string(x).unwrap();
    format!(
        r#"{{"version":1,"curves":[{{"id":"c","kind":"expr","x":{x},"y":"0","t_min":{t_min},"t_max":{t_max}}}],
"agents":[{{"position":[0,0],"behaviour":{{"type":"parametric","curve":"c"}}}}]}}"#
    )
}

/// The reason a scene with this x(t) is refused (one line, at `curves[0].x`).
fn load_error(x: &str, t_min: f32, t_max: f32) -> String {
    let err = parse_scene(&scene_with_x(x, t_min, t_max), "s.json").map(|_| ()).unwrap_err();
    assert_eq!(err.json_path, "curves[0].x", "{err}");
    assert!(!err.to_string().contains('\n'));
    err.reason
}

fn sum_of_t(terms: usize) -> String {
    vec!["t"; terms].join("+")
}

#[test]
fn long_sum_that_used_to_overflow_the_stack_evaluates_with_its_derivative() {
    // 95 and 127 terms aborted the process through exmex's recursive derivative.
    for terms in [95, 127] {
        let text = sum_of_t(terms);
        assert!(text.len() <= MAX_EXPRESSION_LEN);
        let curve = expr(&text, 0.0, 1.0).unwrap();
        assert_eq!(curve.point(0.5).x, 0.5 * terms as f32);
        assert!((curve.derivative(0.5).x - terms as f32).abs() < 1e-3 * terms as f32);
        assert!(parse_scene(&scene_with_x(&text, 0.0, 1.0), "s.json").is_ok());
        assert!(validate_expr_curve(&text, "0", "", "0", "1").is_ok());
    }
}

#[test]
fn long_products_quotients_and_powers_do_not_abort_on_a_small_stack() {
    // Run on a 512 KiB thread: with exmex's recursive derivative 4 terms overflowed it. What is
    // left is a constant frame size (the same for 16 terms as for 128), not recursion.
    let handle = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(|| {
            for op in ["*", "/", "^", "-"] {
                let text = vec!["t"; 128].join(op);
                let _ = expr(&text, 1.0, 2.0);
                let _ = validate_expr_curve(&text, "0", "", "1", "2");
            }
            let mixed = vec!["sin(t)*t"; 28].join("+");
            assert!(expr(&mixed, 0.0, 1.0).is_ok());
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn deep_nesting_is_refused_with_its_depth() {
    let ok = format!("{}t{}", "sin(".repeat(MAX_EXPRESSION_DEPTH), ")".repeat(MAX_EXPRESSION_DEPTH));
    assert!(expr(&ok, 0.0, 1.0).is_ok());
    let deep = MAX_EXPRESSION_DEPTH + 1;
    let text = format!("{}t{}", "(".repeat(deep), ")".repeat(deep));
    let reason = load_error(&text, 0.0, 1.0);
    assert!(reason.contains(&format!("nested too deeply ({deep} levels")), "{reason}");
    let editor = validate_expr_curve(&text, "0", "", "0", "1").unwrap_err();
    assert!(editor.contains("nested too deeply"), "{editor}");
}

#[test]
fn too_long_expression_is_refused_by_the_curve_and_by_the_editor() {
    let text = sum_of_t(200);
    let err = expr(&text, 0.0, 1.0).unwrap_err();
    assert!(err.to_string().contains("too long (399 characters, at most 256)"), "{err}");
    assert!(validate_expr_curve(&text, "0", "", "0", "1").unwrap_err().contains("too long"));
}

#[test]
fn non_finite_expressions_are_refused_with_the_t_where_they_fail() {
    let cases = [
        ("t/0", 0.0, 1.0, "x(t) is not finite (NaN) at t = 0"),
        ("1/t", -1.0, 1.0, "x(t) is not finite (infinity) at t = 0"),
        ("sqrt(-1)", 0.0, 1.0, "x(t) is not finite (NaN) at t = 0"),
        ("ln(t)", 0.0, 1.0, "x(t) is not finite (-infinity) at t = 0"),
        ("ln(1-t)", 0.0, 1.0, "x(t) is not finite (-infinity) at t = 1"),
        ("10^1000", 0.0, 1.0, "x(t) is not finite (infinity) at t = 0"),
        ("t^1000", 0.0, 6.2831855, "beyond the coordinate limit"),
        ("sqrt(0-t*t)", 0.0, 1.0, "x(t) has no finite derivative"),
    ];
    for (text, t_min, t_max, expected) in cases {
        let reason = load_error(text, t_min, t_max);
        assert!(reason.contains(expected), "{text}: {reason}");
        let editor = validate_expr_curve(text, "0", "", &t_min.to_string(), &t_max.to_string()).unwrap_err();
        assert!(editor.contains(expected), "{text}: {editor}");
    }
}

#[test]
fn one_sided_derivative_keeps_a_curve_that_starts_at_the_edge_of_its_domain() {
    let curve = expr("sqrt(t)*t", 0.0, 1.0).unwrap();
    assert!(curve.derivative(0.0).x.abs() < 0.01);
    assert!((curve.derivative(1.0).x - 1.5).abs() < 1e-3);
}

#[test]
fn power_beyond_the_coordinate_limit_names_the_first_failing_sample() {
    let reason = load_error("t^1000", 0.0, 6.2831855);
    // t^1000 > 1e6 first for t > 1e6^(1/1000) ≈ 1.0139; the sample spacing is 2π/1024.
    let t: f32 = reason.rsplit("at t = ").next().unwrap().parse().unwrap();
    assert!(t > 1.0139 && t < 1.0139 + 6.2831855 / 1024.0 + 1e-4, "{reason}");
}

#[test]
fn scientific_notation_is_accepted() {
    let curve = expr("1e5*sin(t)", 0.0, 1.0).unwrap();
    assert!((curve.point(1.0).x - 1e5 * 1f32.sin()).abs() < 0.1);
    let curve = expr("2.5E-2*t + 1e+1", 0.0, 1.0).unwrap();
    assert!((curve.point(1.0).x - 10.025).abs() < 1e-5);
    assert!(validate_expr_curve("1e3*cos(t)", "1e3*sin(t)", "", "0", "6.28").is_ok());
}

#[test]
fn scientific_notation_beyond_the_limit_says_so_in_plain_words() {
    let reason = load_error("1e30*sin(t)", 0.0, 1.0);
    assert!(reason.contains("beyond the coordinate limit"), "{reason}");
    assert!(!reason.contains("ops and"), "{reason}");
}

#[test]
fn parser_internals_never_reach_the_user() {
    for text in ["2t", "t t", "sin()", "*t", "t+", "((t)", "1e", "e5"] {
        let Err(err) = expr(text, 0.0, 1.0) else { continue };
        let message = err.to_string();
        for internal in ["ops and", "node", "flat"] {
            assert!(!message.contains(internal), "{text}: {message}");
        }
    }
}
