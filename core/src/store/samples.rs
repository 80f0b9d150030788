//! The sample plans of the repository's `plans/`, built into the program, so that a new workspace
//! can be seeded wherever the program runs.

/// `(id, JSON text)` of each sample plan.
pub const SAMPLES: [(&str, &str); 4] = [
    (
        "customer-support",
        include_str!("../../../plans/customer-support.json"),
    ),
    (
        "medical-intake",
        include_str!("../../../plans/medical-intake.json"),
    ),
    (
        "daily-routine",
        include_str!("../../../plans/daily-routine.json"),
    ),
    (
        "collections",
        include_str!("../../../plans/collections.json"),
    ),
];
