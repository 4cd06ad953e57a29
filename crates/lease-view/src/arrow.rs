//! The two back corners of an arrowhead, shared by the canvas and the SVG
//! export. Rotating a unit vector by a fixed angle needs no trigonometry at
//! run time.

/// Half the head's opening angle, 0.45 rad, as its cosine and sine.
const COS_HALF: f64 = 0.900_447_102_352_676_9;
const SIN_HALF: f64 = 0.434_965_534_111_230_23;

/// The back corners of a head of side `r` at `tip`, pointing away from `from`;
/// a head with no direction (`from == tip`) points right.
pub fn arrow_head(tip: (f64, f64), from: (f64, f64), r: f64) -> [(f64, f64); 2] {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = dx.hypot(dy);
    let (ux, uy) = if len > 0.0 {
        (dx / len, dy / len)
    } else {
        (1.0, 0.0)
    };
    // The direction turned by -0.45 and +0.45 rad.
    let left = (ux * COS_HALF + uy * SIN_HALF, uy * COS_HALF - ux * SIN_HALF);
    let right = (ux * COS_HALF - uy * SIN_HALF, uy * COS_HALF + ux * SIN_HALF);
    [
        (tip.0 - r * left.0, tip.1 - r * left.1),
        (tip.0 - r * right.0, tip.1 - r * right.1),
    ]
}

// The tests hold the rotation to the trigonometry it does without.
#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_half_angle_constants_are_those_of_0_45_rad() {
        assert!((COS_HALF - 0.45f64.cos()).abs() < 1e-15);
        assert!((SIN_HALF - 0.45f64.sin()).abs() < 1e-15);
    }

    #[test]
    fn a_head_without_direction_points_right() {
        let [a, b] = arrow_head((10.0, 5.0), (10.0, 5.0), 6.0);
        assert!(a.0 < 10.0 && b.0 < 10.0, "{a:?} {b:?}");
        assert!(
            (a.1 - 5.0 + (b.1 - 5.0)).abs() < 1e-12,
            "symmetric: {a:?} {b:?}"
        );
    }

    proptest! {
        /// The corners are where the angle formula puts them.
        #[test]
        fn corners_match_the_angle_formula(
            tx in -1e4..1e4f64, ty in -1e4..1e4f64, fx in -1e4..1e4f64, fy in -1e4..1e4f64,
            r in 0.0..50.0f64,
        ) {
            prop_assume!((tx - fx).hypot(ty - fy) > 1e-6);
            let a = (ty - fy).atan2(tx - fx);
            let want = [
                (tx - r * (a - 0.45).cos(), ty - r * (a - 0.45).sin()),
                (tx - r * (a + 0.45).cos(), ty - r * (a + 0.45).sin()),
            ];
            let got = arrow_head((tx, ty), (fx, fy), r);
            for (g, w) in got.iter().zip(want) {
                prop_assert!((g.0 - w.0).abs() < 1e-9 && (g.1 - w.1).abs() < 1e-9, "{:?} {:?}", got, want);
            }
        }
    }
}
