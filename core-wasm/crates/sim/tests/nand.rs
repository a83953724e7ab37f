//! NAND rules are enforced by the chip, and power loss fails every later operation.

use ftl_sim::nand::{Cause, Chip, Flash, FlashError, Page, PageKind};

fn chip() -> Flash {
    Flash::new(Chip::preset("classroom").unwrap())
}

#[test]
fn program_only_erased_pages() {
    let mut f = chip();
    f.program(5, Page::data(1, 1), Cause::Host).unwrap();
    let e = f.program(5, Page::data(1, 2), Cause::Host).unwrap_err();
    assert!(matches!(e, FlashError::Violation(ref m) if m.contains("not erased")), "{e:?}");
    // Erasing the whole block makes the page programmable again.
    f.erase(1, Cause::Gc).unwrap();
    f.program(5, Page::data(1, 2), Cause::Host).unwrap();
    assert_eq!(f.erase_count(1), 1);
    assert_eq!(f.erase_count(0), 0);
}

#[test]
fn erase_is_whole_block() {
    let mut f = chip();
    for p in 4..8 {
        f.program(p, Page::data(p, 1), Cause::Host).unwrap();
    }
    f.program(8, Page::data(8, 1), Cause::Host).unwrap();
    f.erase(1, Cause::Gc).unwrap();
    assert!((4..8).all(|p| f.peek(p).is_erased()));
    assert!(!f.peek(8).is_erased(), "the next block is untouched");
}

#[test]
fn in_order_programming_when_enabled() {
    let mut c = Chip::preset("classroom").unwrap();
    c.in_order_programming = true;
    let mut f = Flash::new(c);
    f.program(2, Page::data(0, 1), Cause::Host).unwrap();
    let e = f.program(1, Page::data(0, 2), Cause::Host).unwrap_err();
    assert!(matches!(e, FlashError::Violation(ref m) if m.contains("out-of-order")));
    // Off by default: the 2000s schemes write data blocks in place.
    let mut f = chip();
    f.program(2, Page::data(0, 1), Cause::Host).unwrap();
    f.program(1, Page::data(0, 2), Cause::Host).unwrap();
}

#[test]
fn out_of_range_is_a_violation() {
    let mut f = chip();
    assert!(matches!(f.read(64, Cause::Host), Err(FlashError::Violation(_))));
    assert!(matches!(f.erase(16, Cause::Host), Err(FlashError::Violation(_))));
}

#[test]
fn power_loss_budget_and_torn_program() {
    let mut f = chip();
    f.set_power_budget(Some(2));
    f.program(0, Page::data(0, 1), Cause::Host).unwrap();
    f.read(0, Cause::Host).unwrap();
    // The third operation is the one power fails on: the page under program is torn.
    assert_eq!(f.program(1, Page::data(1, 2), Cause::Host), Err(FlashError::PowerLoss));
    assert_eq!(f.peek(1).kind, PageKind::Torn);
    assert_eq!(f.read(0, Cause::Host), Err(FlashError::PowerLoss), "every later operation fails");
    assert!(f.power_lost());
    f.power_on();
    assert_eq!(f.peek(0).kind, PageKind::Data, "the chip keeps what was programmed");
    f.read(0, Cause::Recovery).unwrap();
}

#[test]
fn counts_and_time_by_cause() {
    let mut f = chip();
    f.program(0, Page::data(0, 1), Cause::Host).unwrap();
    f.copy(0, 4, Cause::Gc).unwrap();
    f.erase(0, Cause::Gc).unwrap();
    f.read_oob(4, Cause::Host).unwrap();
    // classroom timing: 15 us read and OOB read, 200 us program, 2 ms erase.
    assert_eq!(f.elapsed_ns, (200 + 15 + 200 + 2000 + 15) * 1000);
    use ftl_sim::nand::OpKind::*;
    assert_eq!(f.count(Program, Cause::Host), 1);
    assert_eq!(f.count(Program, Cause::Gc), 1);
    assert_eq!(f.count(Read, Cause::Gc), 1);
    assert_eq!(f.count(Erase, Cause::Gc), 1);
    assert_eq!(f.count(ReadOob, Cause::Host), 1);
    assert_eq!(f.total_ops(), 5);
}

/// `read_oob_unused` (the OOB read whose page the caller does not use) counts, times and
/// fails exactly as `read_oob`: on the plain path, out of range, under a power budget,
/// and with the event recorded.
#[test]
fn an_unused_oob_read_is_an_oob_read() {
    use ftl_sim::nand::OpKind::ReadOob;
    let (mut a, mut b) = (chip(), chip());
    for f in [&mut a, &mut b] {
        f.program(4, Page::data(9, 1), Cause::Host).unwrap();
    }
    a.read_oob(4, Cause::Gc).unwrap();
    b.read_oob_unused(4, Cause::Gc).unwrap();
    assert_eq!((b.elapsed_ns, b.count(ReadOob, Cause::Gc)), (a.elapsed_ns, a.count(ReadOob, Cause::Gc)));
    assert_eq!(b.count(ReadOob, Cause::Gc), 1);
    assert!(matches!(b.read_oob_unused(64, Cause::Host), Err(FlashError::Violation(_))));
    assert_eq!(b.total_ops(), a.total_ops(), "a refused read is not counted");
    for f in [&mut a, &mut b] {
        f.set_recording(true);
    }
    a.read_oob(4, Cause::Host).unwrap();
    b.read_oob_unused(4, Cause::Host).unwrap();
    let events = a.take_events();
    assert_eq!(events.len(), 1);
    assert_eq!(b.take_events(), events);
    for f in [&mut a, &mut b] {
        f.set_power_budget(Some(1));
    }
    a.read_oob(4, Cause::Host).unwrap();
    b.read_oob_unused(4, Cause::Host).unwrap();
    assert_eq!(a.read_oob(4, Cause::Host), Err(FlashError::PowerLoss));
    assert_eq!(b.read_oob_unused(4, Cause::Host), Err(FlashError::PowerLoss));
    assert_eq!((b.elapsed_ns, b.count(ReadOob, Cause::Host)), (a.elapsed_ns, a.count(ReadOob, Cause::Host)));
}

#[test]
fn events_only_when_recording() {
    let mut f = chip();
    f.program(0, Page::data(0, 1), Cause::Host).unwrap();
    assert!(f.take_events().is_empty());
    f.set_recording(true);
    f.program(1, Page::data(1, 1), Cause::Host).unwrap();
    f.note("x", || "hello".into());
    assert_eq!(f.take_events().len(), 2);
}
