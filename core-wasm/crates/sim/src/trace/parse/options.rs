//! Parser options: the format, units, device filter, and the CSV column mapping.

use serde::{Deserialize, Serialize};

use super::Format;
pub use crate::timing::TimeUnit;
use crate::trace::MAX_REQUESTS;

/// Unit of a CSV address or size column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Bytes,
    Sectors,
    Pages,
}

impl Unit {
    pub fn from_word(w: &str) -> Option<Unit> {
        match w.trim().to_ascii_lowercase().as_str() {
            "b" | "byte" | "bytes" => Some(Unit::Bytes),
            "s" | "sector" | "sectors" | "512" | "512b" => Some(Unit::Sectors),
            "p" | "page" | "pages" => Some(Unit::Pages),
            _ => None,
        }
    }
}

/// Which column holds a role: a header name (case-insensitive) or a 1-based column
/// number (for files without a header), and the unit of its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnRef {
    pub column: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Unit>,
}

/// The user's column and value mapping for CSV-like text (`--column ROLE=NAME[:UNIT]`,
/// `--write-op V`, `--read-op V`; the app's mapping in the upload dialog). Roles left
/// out are guessed from the header; op values are checked against the user's lists
/// first, then the usual words (R/W, Read/Write) and SCSI opcodes in hex.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mapping {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_ops: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_ops: Vec<String>,
}

/// The roles a column can be mapped to.
pub const ROLES: &[&str] = &["op", "address", "size", "device", "time"];

impl Mapping {
    pub fn is_empty(&self) -> bool {
        *self == Mapping::default()
    }
    pub(crate) fn refs(&self) -> [(&'static str, Option<&ColumnRef>); 5] {
        [
            ("op", self.op.as_ref()),
            ("address", self.address.as_ref()),
            ("size", self.size.as_ref()),
            ("device", self.device.as_ref()),
            ("time", self.time.as_ref()),
        ]
    }
    /// Refuses a mapping that contradicts itself: an op value meaning both read and write.
    pub fn check(&self) -> Result<(), String> {
        for w in &self.write_ops {
            if let Some(r) = self.read_ops.iter().find(|r| r.trim().eq_ignore_ascii_case(w.trim())) {
                return Err(format!(
                    "the op value '{}' is given as both read (--read-op) and write (--write-op)",
                    r.trim()
                ));
            }
        }
        Ok(())
    }

    /// Applies one `ROLE=NAME[:UNIT]` (the CLI's `--column`); a role mapped twice is refused.
    pub fn set_column(&mut self, spec: &str) -> Result<(), String> {
        let (role, rest) = spec
            .split_once('=')
            .ok_or_else(|| format!("--column '{spec}': expected ROLE=NAME[:UNIT], e.g. address=lbn:sectors or op=3"))?;
        let role = role.trim().to_ascii_lowercase();
        let (name, unit) = match rest.rsplit_once(':') {
            Some((n, u)) => {
                let unit = Unit::from_word(u).ok_or_else(|| {
                    format!("--column '{spec}': unknown unit '{u}': expected bytes, sectors or pages")
                })?;
                (n.trim(), Some(unit))
            }
            None => (rest.trim(), None),
        };
        if name.is_empty() {
            return Err(format!("--column '{spec}': no column name or number after '='"));
        }
        if name.bytes().all(|c| c.is_ascii_digit()) && name.parse::<usize>().ok() == Some(0) {
            return Err(format!("--column '{spec}': column numbers start at 1"));
        }
        let r = Some(ColumnRef { column: name.to_string(), unit });
        if unit.is_some() && !matches!(role.as_str(), "address" | "size") {
            return Err(format!("--column '{spec}': only address and size take a unit"));
        }
        let (name, slot) = match role.as_str() {
            "op" => ("op", &mut self.op),
            "address" | "addr" | "lba" | "offset" => ("address", &mut self.address),
            "size" | "length" => ("size", &mut self.size),
            "device" | "dev" => ("device", &mut self.device),
            "time" | "timestamp" => ("time", &mut self.time),
            _ => return Err(format!("--column '{spec}': unknown role '{role}': expected one of {}", ROLES.join(", "))),
        };
        if let Some(old) = slot {
            return Err(format!("--column '{spec}': the {name} is already mapped to column '{}'", old.column));
        }
        *slot = r;
        Ok(())
    }
}

/// Parser options. All fields have defaults, so `{}` is valid JSON options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TraceOptions {
    /// None: auto-detect from the first lines.
    pub format: Option<Format>,
    /// The chip's page size: byte and sector addresses map to pages of this size.
    pub page_bytes: u32,
    /// Sector size for sector-addressed formats (UMass LBA, DiskSim, blkparse, CSV `lba`).
    pub sector_bytes: u32,
    /// Keep only records of this device (UMass ASU, MSR DiskNumber, blkparse `maj,min`,
    /// DiskSim device, CSV `device` column).
    pub device: Option<String>,
    /// Skip malformed lines (counted and listed) instead of failing.
    pub skip_bad_lines: bool,
    /// How many errors are listed (the count of bad lines is always exact).
    pub max_errors: usize,
    /// blkparse: which action counts (`D` = issued to the device, `Q` = queued, `C` = completed).
    pub blkparse_action: String,
    /// CSV: unit of the address column when the header does not say.
    pub csv_address_unit: Option<Unit>,
    /// CSV: unit of the size column when the header does not say.
    pub csv_size_unit: Option<Unit>,
    /// At most this many page requests are kept; the rest are counted as truncated.
    pub limit: u64,
    /// CSV: the user's column and op-value mapping (empty: guessed from the header).
    pub mapping: Mapping,
    /// Unit of the timestamps; None: the format's own (docs/traces.md).
    pub time_unit: Option<TimeUnit>,
    /// Unit of the ids of formats whose address has no unit of its own: oracleGeneral's
    /// `obj_id` and the one-address-per-line reader (default pages; libCacheSim's
    /// CloudPhysics sample uses 512-byte sectors: `--id-unit sectors`).
    pub id_unit: Option<Unit>,
    /// Keep no timestamps (`RawTrace::schedule` then has no arrivals): for a run known to
    /// be in the closed model, which never reads them (8 bytes a record less while parsing;
    /// issue 37). Not in JSON: the app may open the model after parsing.
    #[serde(skip)]
    pub drop_times: bool,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: None,
            page_bytes: 512,
            sector_bytes: 512,
            device: None,
            skip_bad_lines: false,
            max_errors: 20,
            blkparse_action: "D".into(),
            csv_address_unit: None,
            csv_size_unit: None,
            limit: MAX_REQUESTS,
            mapping: Mapping::default(),
            time_unit: None,
            id_unit: None,
            drop_times: false,
        }
    }
}
