//! Input decompression: gzip and zstd, detected from the magic bytes, fed in chunks.
//!
//! Both decoders hand their text to a sink in small pieces (at most 32 KB for gzip, one
//! zstd block of at most 128 KB), and stop as soon as the sink says so: a file that
//! expands to gigabytes is refused (binary) or cut (request limit) after its first
//! pieces, in memory bounded by the chunk fed plus the zstd window (issue 29).

/// Largest zstd window accepted. `zstd -1` to `-19` use at most 8 MB and `--ultra -22`
/// 128 MB (`--long` likewise); the window is memory the decoder must hold, so a frame
/// asking for more is refused with a message instead of allocating it.
pub(crate) const MAX_ZSTD_WINDOW: u64 = 32 << 20;

/// Largest zstd block (the format's limit: Block_Maximum_Size).
const MAX_BLOCK: usize = 128 << 10;

/// Takes decoded text; returns false to stop decoding (the parser failed or is done).
pub(super) type Sink<'a> = dyn FnMut(&[u8]) -> bool + 'a;

/// Input decompression (detected from the magic bytes, not the file name).
pub(super) enum Codec {
    /// Not decided yet (fewer than 4 bytes seen).
    Unknown(Vec<u8>),
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
    Zstd(Box<ZstdPush>),
}

/// Feeds `input` to a gzip decoder, `sink` getting the text 32 KB at a time (a 4 MB
/// chunk of deflated zeros would otherwise become 4 GB in one Vec).
pub(super) fn gzip_push(
    d: &mut flate2::write::MultiGzDecoder<Vec<u8>>,
    input: &[u8],
    last: bool,
    compressed: u64,
    sink: &mut Sink<'_>,
) -> Result<(), String> {
    use std::io::Write;
    let err = |e: std::io::Error| format!("gzip: {e} (after {compressed} compressed bytes)");
    let mut rest = input;
    while !rest.is_empty() {
        let n = d.write(rest).map_err(err)?;
        rest = &rest[n..];
        let text = std::mem::take(d.get_mut());
        if !text.is_empty() && !sink(&text) {
            return Ok(());
        }
        if n == 0 {
            return Err(format!("gzip: data after the end of the stream (after {compressed} compressed bytes)"));
        }
    }
    // The decoder keeps up to 32 KB of text until its next write: have it now.
    let r = d.flush();
    let text = std::mem::take(d.get_mut());
    if !text.is_empty() && !sink(&text) {
        return Ok(());
    }
    if !last {
        return r.map_err(err);
    }
    {
        let r = d.try_finish();
        let text = std::mem::take(d.get_mut());
        if !text.is_empty() && !sink(&text) {
            return Ok(());
        }
        r.map_err(err)?;
    }
    Ok(())
}

/// zstd fed in chunks. ruzstd's `decode_from_to` decodes every whole block of the
/// slice it is given into its own buffer, so it is given exactly one block at a time
/// (the block headers are read here), and the text is drained after each.
pub(super) struct ZstdPush {
    dec: ruzstd::decoding::FrameDecoder,
    buf: Vec<u8>,
    in_frame: bool,
    /// The frame's Content_Checksum_flag: 4 bytes follow its last block.
    checksum: bool,
    out: Vec<u8>,
}

impl ZstdPush {
    pub(super) fn new() -> ZstdPush {
        let mut dec = ruzstd::decoding::FrameDecoder::new();
        dec.set_max_window_size(MAX_ZSTD_WINDOW);
        ZstdPush { dec, buf: Vec::new(), in_frame: false, checksum: false, out: vec![0; 1 << 17] }
    }

    /// Decompresses what it can of `input`, handing the text to `sink`.
    pub(super) fn push(&mut self, input: &[u8], last: bool, sink: &mut Sink<'_>) -> Result<(), String> {
        self.buf.extend_from_slice(input);
        let mut pos = 0usize;
        let r = self.blocks(&mut pos, last, sink);
        self.buf.drain(..pos);
        match r {
            Ok(true) if last && (self.in_frame || !self.buf.is_empty()) => {
                Err("zstd: the file ends inside a frame (truncated?)".into())
            }
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Ok(false): the sink asked to stop.
    fn blocks(&mut self, pos: &mut usize, last: bool, sink: &mut Sink<'_>) -> Result<bool, String> {
        loop {
            let b = &self.buf[*pos..];
            if !self.in_frame {
                if b.len() >= 8 && b[0] & 0xf0 == 0x50 && b[1..4] == [0x2a, 0x4d, 0x18] {
                    // A skippable frame: magic, 4-byte length, data.
                    let len = u32::from_le_bytes(b[4..8].try_into().expect("4 bytes")) as usize;
                    if b.len() < 8 + len {
                        return Ok(true);
                    }
                    *pos += 8 + len;
                    continue;
                }
                // A frame header is at most 18 bytes.
                if b.is_empty() || (b.len() < 18 && !last) {
                    return Ok(true);
                }
                if b.len() >= 5 && b[..4] == [0x28, 0xb5, 0x2f, 0xfd] {
                    self.checksum = b[4] & 0x04 != 0;
                }
                let mut src = b;
                let before = src.len();
                self.dec.reset(&mut src).map_err(|e| match e {
                    ruzstd::decoding::errors::FrameDecoderError::WindowSizeTooBig { requested, .. } => format!(
                        "zstd: the file was compressed with a {} MB window; at most {} MB is read (compress it again without --long or --ultra)",
                        requested >> 20,
                        MAX_ZSTD_WINDOW >> 20
                    ),
                    e => format!("zstd: {e}"),
                })?;
                *pos += before - src.len();
                self.in_frame = true;
                continue;
            }
            if b.len() < 3 {
                return Ok(true);
            }
            let h = b[0] as usize | (b[1] as usize) << 8 | (b[2] as usize) << 16;
            let (last_block, kind, size) = (h & 1 == 1, (h >> 1) & 3, h >> 3);
            if size > MAX_BLOCK || kind == 3 {
                return Err("zstd: corrupt block header (not a zstd file, or damaged)".into());
            }
            let body = if kind == 1 { 1 } else { size };
            let whole = 3 + body + if last_block && self.checksum { 4 } else { 0 };
            if b.len() < whole {
                return Ok(true);
            }
            let (r, w) = self.dec.decode_from_to(&b[..whole], &mut self.out).map_err(|e| format!("zstd: {e}"))?;
            if r != whole {
                return Err("zstd: corrupt block (not a zstd file, or damaged)".into());
            }
            *pos += r;
            if w > 0 && !sink(&self.out[..w]) {
                return Ok(false);
            }
            // Drain what this block made (all of it once the frame is finished).
            while self.dec.can_collect() > 0 {
                let (_, w) = self.dec.decode_from_to(&[], &mut self.out).map_err(|e| format!("zstd: {e}"))?;
                if w == 0 {
                    break;
                }
                if !sink(&self.out[..w]) {
                    return Ok(false);
                }
            }
            if last_block {
                self.in_frame = false;
            }
        }
    }
}

/// Decompresses the head of a file as far as it goes (for the preview), at most
/// `max` bytes of text.
pub(super) fn decompress_head(head: &[u8], max: usize) -> Result<(Vec<u8>, Option<String>), String> {
    let mut text = Vec::new();
    let mut keep = |t: &[u8]| {
        text.extend_from_slice(&t[..t.len().min(max - text.len())]);
        text.len() < max
    };
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut d = flate2::write::MultiGzDecoder::new(Vec::new());
        // A cut-off stream errors only at the end: keep what was decoded.
        let _ = gzip_push(&mut d, head, false, 0, &mut keep);
        return Ok((text, Some("gzip".into())));
    }
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let mut z = ZstdPush::new();
        z.push(head, false, &mut keep).map_err(|e| format!("cannot preview: {e}"))?;
        return Ok((text, Some("zstd".into())));
    }
    Ok((head.to_vec(), None))
}
