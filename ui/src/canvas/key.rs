//! The identity the view keys a card, an arrow or an interruption by.

use std::hash::{Hash, Hasher};

/// An item's identity for the view: a hash of everything it draws. Hashed rather than written out
/// as text (as it was): formatting every card's and arrow's content into a key string was a good
/// part of building a large plan's scene. Two different drawings share a key with a chance of
/// about one in 2⁶⁴ per pair; SipHash with fixed keys, so the same drawing always has one key.
pub fn key_of(parts: impl Hash) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    parts.hash(&mut h);
    h.finish()
}
