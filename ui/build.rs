//! Link options for the UI's wasm. The release build strips the function names (`strip =
//! "symbols"` in the workspace's Cargo.toml: a third of the file, fetched and parsed at every
//! start), but keeps the two sections wasm-bindgen reads: which wasm features the module uses,
//! and its own description of the bindings. The stack is 8 MiB instead of the linker's 1 MiB:
//! the debug build's frames for a deep view (the Test chat panel made at once) outgrew 1 MiB, and
//! a wasm stack that overflows does not trap, it writes over memory ("Out of bounds memory
//! access" later, the page dead without a panic).

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=--keep-section=target_features");
        println!("cargo:rustc-link-arg=--keep-section=__wasm_bindgen_unstable");
        println!("cargo:rustc-link-arg=-zstack-size=8388608");
    }
}
