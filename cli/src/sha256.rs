//! SHA-256 (FIPS 180-4), for the content hash of the input files in the outputs' provenance:
//! the hash `sha256sum FILE` prints, so a reader can check which file a result came from.
//! Computed by the `sha2` crate, which uses the CPU's SHA instructions where it has them
//! (x86-64's SHA extensions, ARMv8's): every JSON, CSV and Markdown output on files hashes
//! them, and the portable computation takes longer than reading and evaluating the data
//! (docs/performance.md, "Measured choices").

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// The digest of `hash`, as 64 lowercase hexadecimal digits.
fn hex(hash: Sha256) -> String {
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of the file's bytes as stored (a `.gz` file's compressed bytes), read in blocks.
///
/// # Errors
/// The file cannot be read.
pub fn file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return Ok(hex(hash)),
            Ok(n) => hash.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `file` of a file holding `bytes`.
    fn of_file(bytes: &[u8]) -> String {
        let path = std::env::temp_dir().join(format!(
            "rankmetrics-sha256-{}-{}",
            std::process::id(),
            bytes.len()
        ));
        std::fs::write(&path, bytes).expect("a temporary file");
        let digest = file(&path).expect("readable");
        std::fs::remove_file(&path).expect("removable");
        digest
    }

    #[test]
    fn known_digests() {
        // FIPS 180-4's examples, the empty message, and a million bytes (read in 16 blocks).
        assert_eq!(
            of_file(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            of_file(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            of_file(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            of_file(&[b'a'; 1_000_000]),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn a_missing_file_is_an_error() {
        assert!(file(Path::new("/nonexistent/rankmetrics-sha256")).is_err());
    }
}
