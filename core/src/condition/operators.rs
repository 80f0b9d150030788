//! The choices a condition offers, typed: a number comparison's operator, which turns count, a
//! session state comparison's operator, and how a compound combines. Each is written in the plan
//! format as a word (`as_str`, `from_name`) and shown to an author as a sign or words (`shown`).

use super::TurnScope;

/// Declares a choice: its variants with their word in the plan format and what an author sees.
macro_rules! choice {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal, $shown:literal;)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every choice, in the order a picker lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word in the plan format.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The choice a word of the plan format names, if any.
            pub fn from_name(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// What an author reads in a picker.
            pub fn shown(self) -> &'static str {
                match self {
                    $($name::$variant => $shown,)+
                }
            }
        }
    };
}

choice! {
    /// The operator of `deliverable_value_numeric`.
    NumericOperator {
        /// Greater than.
        Gt = "gt", ">";
        /// Greater than or equal to (what a new comparison starts as).
        #[default]
        Gte = "gte", "≥";
        /// Less than.
        Lt = "lt", "<";
        /// Less than or equal to.
        Lte = "lte", "≤";
        /// Equal to.
        Eq = "eq", "=";
        /// Not equal to.
        Neq = "neq", "≠";
        /// Between `min` and `max`.
        Between = "between", "between";
    }
}

choice! {
    /// The operator of `session_state_value`.
    SessionOperator {
        /// Equal to (when a comparison does not say).
        #[default]
        Eq = "eq", "=";
        /// Not equal to.
        Neq = "neq", "≠";
        /// One of a list of values (a state that is not a list).
        In = "in", "is one of";
        /// A list state holds the value.
        Contains = "contains", "holds";
        /// Greater than (a number state).
        Gt = "gt", ">";
        /// Greater than or equal to (a number state).
        Gte = "gte", "≥";
        /// Less than (a number state).
        Lt = "lt", "<";
        /// Less than or equal to (a number state).
        Lte = "lte", "≤";
    }
}

choice! {
    /// How a `compound` condition combines its conditions.
    Combine {
        /// Every condition holds.
        #[default]
        And = "and", "and (all true)";
        /// At least one holds.
        Or = "or", "or (any true)";
    }
}

impl SessionOperator {
    /// The operators that fit a session state: `contains` for a list, `in` for one value, the
    /// orderings for a number that is not a list.
    pub fn offered(list: bool, number: bool) -> Vec<SessionOperator> {
        use SessionOperator as O;
        let mut operators = vec![O::Eq, O::Neq, if list { O::Contains } else { O::In }];
        if number && !list {
            operators.extend([O::Gt, O::Gte, O::Lt, O::Lte]);
        }
        operators
    }
}

impl TurnScope {
    /// Both scopes, in the order a picker lists them.
    pub const ALL: &'static [TurnScope] = &[TurnScope::WithoutProgress, TurnScope::Total];

    /// The word in the plan format.
    pub fn as_str(self) -> &'static str {
        match self {
            TurnScope::WithoutProgress => "without_progress",
            TurnScope::Total => "total",
        }
    }

    /// The scope a word of the plan format names, if any.
    pub fn from_name(word: &str) -> Option<TurnScope> {
        TurnScope::ALL.iter().copied().find(|s| s.as_str() == word)
    }

    /// What an author reads in a picker.
    pub fn shown(self) -> &'static str {
        match self {
            TurnScope::WithoutProgress => "turns without progress",
            TurnScope::Total => "all turns in this state",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_from_its_word() {
        for o in NumericOperator::ALL {
            assert_eq!(NumericOperator::from_name(o.as_str()), Some(*o));
        }
        for o in SessionOperator::ALL {
            assert_eq!(SessionOperator::from_name(o.as_str()), Some(*o));
        }
        for c in Combine::ALL {
            assert_eq!(Combine::from_name(c.as_str()), Some(*c));
        }
        for s in TurnScope::ALL {
            assert_eq!(TurnScope::from_name(s.as_str()), Some(*s));
        }
        assert_eq!(NumericOperator::from_name("between!"), None);
    }

    #[test]
    fn a_session_state_is_offered_only_the_operators_that_fit_it() {
        use SessionOperator as O;
        assert_eq!(O::offered(false, false), vec![O::Eq, O::Neq, O::In]);
        assert_eq!(O::offered(true, true), vec![O::Eq, O::Neq, O::Contains]);
        assert_eq!(
            O::offered(false, true),
            vec![O::Eq, O::Neq, O::In, O::Gt, O::Gte, O::Lt, O::Lte]
        );
    }
}
