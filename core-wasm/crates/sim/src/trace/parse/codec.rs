//! Input decompression: gzip and zstd, detected from the magic bytes, fed in chunks.

/// Input decompression (detected from the magic bytes, not the file name).
pub(super) enum Codec {
    /// Not decided yet (fewer than 4 bytes seen).
    Unknown(Vec<u8>),
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
    Zstd(Box<ZstdPush>),
}

/// zstd fed in chunks: ruzstd's `decode_from_to` needs whole blocks (at most 128 KB),
/// so compressed bytes wait in `buf` until a block is complete.
pub(super) struct ZstdPush {
    dec: ruzstd::decoding::FrameDecoder,
    buf: Vec<u8>,
    in_frame: bool,
    out: Vec<u8>,
}

impl ZstdPush {
    pub(super) fn new() -> ZstdPush {
        ZstdPush { dec: ruzstd::decoding::FrameDecoder::new(), buf: Vec::new(), in_frame: false, out: vec![0; 1 << 18] }
    }

    /// Decompresses what it can of `input`, appending the text to `text`.
    pub(super) fn push(&mut self, input: &[u8], last: bool, text: &mut Vec<u8>) -> Result<(), String> {
        self.buf.extend_from_slice(input);
        let mut pos = 0usize;
        loop {
            let avail = self.buf.len() - pos;
            if !self.in_frame {
                // A frame header is at most 18 bytes.
                if avail == 0 || (avail < 18 && !last) {
                    break;
                }
                let mut src = &self.buf[pos..];
                let before = src.len();
                self.dec.reset(&mut src).map_err(|e| format!("zstd: {e}"))?;
                pos += before - src.len();
                self.in_frame = true;
                continue;
            }
            if avail < 4 && !last {
                // Too little for a block header or the checksum (decode_from_to would
                // claim 4 checksum bytes it has not got): only drain decoded text.
                if let Some(v) = self.dec.collect() {
                    text.extend_from_slice(&v);
                }
                if self.dec.is_finished() && self.dec.can_collect() == 0 {
                    self.in_frame = false;
                    continue;
                }
                break;
            }
            let (r, w) = self.dec.decode_from_to(&self.buf[pos..], &mut self.out).map_err(|e| format!("zstd: {e}"))?;
            if pos + r > self.buf.len() {
                return Err("zstd: the file ends inside a frame (truncated?)".into());
            }
            pos += r;
            text.extend_from_slice(&self.out[..w]);
            if self.dec.is_finished() && self.dec.can_collect() == 0 {
                self.in_frame = false;
                continue;
            }
            if r == 0 && w == 0 {
                break;
            }
        }
        self.buf.drain(..pos);
        if last && (self.in_frame || !self.buf.is_empty()) {
            return Err("zstd: the file ends inside a frame (truncated?)".into());
        }
        Ok(())
    }
}

/// Decompresses the head of a file as far as it goes (for the preview).
pub(super) fn decompress_head(head: &[u8]) -> Result<(Vec<u8>, Option<String>), String> {
    use std::io::Write;
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut d = flate2::write::MultiGzDecoder::new(Vec::new());
        // A cut-off stream errors only at the end: keep what was decoded.
        let _ = d.write_all(head);
        let _ = d.flush();
        return Ok((std::mem::take(d.get_mut()), Some("gzip".into())));
    }
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let mut z = ZstdPush::new();
        let mut text = Vec::new();
        z.push(head, false, &mut text).map_err(|e| format!("cannot preview: {e}"))?;
        return Ok((text, Some("zstd".into())));
    }
    Ok((head.to_vec(), None))
}
