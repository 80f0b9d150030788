//! A run's id and how an author reads it. The id is when the run began, to the second, in UTC
//! (`20261207-154919`), with `-02`, `-03`… when several runs began in the same second, so that
//! ids sort by time and name a folder; it is what `plan simulate --replay RUN` takes. The app
//! never shows it as digits: it says the same moment in words ("7 Dec 2026, 15:49:19 UTC").

/// The id of a run that began at `now` (an RFC 3339 time, as the clock gives it), the `nth`
/// begun in that second (from 1). A clock without a date and time gives `run`.
pub fn new(now: &str, nth: u32) -> String {
    let digits: String = now.chars().filter(char::is_ascii_digit).collect();
    let stamp = match digits.get(..14) {
        Some(d) => format!("{}-{}", &d[..8], &d[8..]),
        None => "run".to_string(),
    };
    match nth {
        0 | 1 => stamp,
        n => format!("{stamp}-{n:02}"),
    }
}

/// Run `id` in words: when it began ("7 Dec 2026, 15:49:19 UTC"), with its place among the runs
/// of that second ("7 Dec 2026, 15:49:19 UTC, the 2nd") when it is not the first. An id this
/// module did not make is said as it is.
pub fn words(id: &str) -> String {
    began(id).unwrap_or_else(|| id.to_string())
}

fn began(id: &str) -> Option<String> {
    let mut parts = id.split('-');
    let (date, time) = (parts.next()?, parts.next()?);
    let nth: Option<u32> = match parts.next() {
        None => None,
        Some(n) => Some(n.parse().ok()?),
    };
    let all_digits = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || !all_digits(date, 8) || !all_digits(time, 6) {
        return None;
    }
    let number = |s: &str| s.parse::<u32>().ok();
    let month = number(&date[4..6])?;
    let name = MONTHS.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    let when = format!(
        "{} {name} {}, {}:{}:{} UTC",
        number(&date[6..8])?,
        &date[..4],
        &time[..2],
        &time[2..4],
        &time[4..6],
    );
    Some(match nth {
        None | Some(1) => when,
        Some(n) => format!("{when}, the {}", ordinal(n)),
    })
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// 2 → "2nd", 11 → "11th", 23 → "23rd".
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_the_second_the_run_began_and_its_place_in_that_second() {
        assert_eq!(new("2026-12-07T15:49:19Z", 1), "20261207-154919");
        assert_eq!(new("2026-12-07T15:49:19.532Z", 2), "20261207-154919-02");
        assert_eq!(new("now", 1), "run");
    }

    #[test]
    fn an_id_is_said_as_the_moment_it_names() {
        assert_eq!(words("20261207-154919"), "7 Dec 2026, 15:49:19 UTC");
        assert_eq!(
            words("20260105-090005-02"),
            "5 Jan 2026, 09:00:05 UTC, the 2nd"
        );
        assert_eq!(
            words("20260105-090005-11"),
            "5 Jan 2026, 09:00:05 UTC, the 11th"
        );
    }

    #[test]
    fn what_is_not_a_run_id_is_said_as_it_is() {
        for id in [
            "run",
            "r1",
            "20261307-154919",
            "2026120-154919",
            "20261207-154919-x",
            "",
        ] {
            assert_eq!(words(id), id);
        }
    }

    #[test]
    fn words_and_ids_agree() {
        let id = new("2026-02-28T23:59:59Z", 3);
        assert_eq!(words(&id), "28 Feb 2026, 23:59:59 UTC, the 3rd");
    }
}
