//! A fast hasher for the validator's maps, which are keyed by the ids and keys of one document:
//! short strings, hashed tens of thousands of times per validation, where SipHash was a seventh of
//! the time. (Its protection against crafted collisions buys nothing for a local file the author
//! wrote; the worst a crafted plan can do is validate slowly.)

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hash (as in rustc): rotate, xor, multiply, a word at a time.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with the [`Fx`] hasher.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// An empty [`FastMap`] with room for `n` entries.
pub fn with_capacity<K, V>(n: usize) -> FastMap<K, V> {
    FastMap::with_capacity_and_hasher(n, BuildHasherDefault::default())
}
