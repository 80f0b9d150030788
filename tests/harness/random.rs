//! A small deterministic random source for tests that pick moments or inputs at random: the same
//! seed, the same picks (no clock, no dependency).

/// A linear congruential generator.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}
