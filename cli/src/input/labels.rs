//! Sparse label lists (`.labels`): per line the relevant labels' indices, read as indicator
//! rows.

use super::lines::Lines;
use super::InputError;

/// Sparse label lists: line i holds the 0-based indices of sample i's relevant labels,
/// separated by spaces or commas; an empty line is a sample without relevant labels.
pub(super) struct LabelRows<'a> {
    pub(super) lines: Lines<'a>,
    pub(super) n_labels: usize,
}

impl LabelRows<'_> {
    pub(super) fn read_rows(
        &mut self, source: &str, gz: bool, max: usize, out: &mut Vec<f64>,
    ) -> Result<usize, InputError> {
        let n_labels = self.n_labels;
        let mut read = 0;
        while read < max {
            let Some((line_no, line)) = self.lines.next(source, gz)? else {
                break;
            };
            let start = out.len();
            out.resize(start + n_labels, 0.0);
            let indices = line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty());
            for (j, field) in indices.enumerate() {
                let place = Some((line_no, j + 1));
                let index = field.parse::<usize>().map_err(|_| InputError {
                    source: source.to_string(),
                    place,
                    message: format!("expected a label index (0, 1, 2, ...), found {field:?}"),
                })?;
                match out.get_mut(start + index).filter(|_| index < n_labels) {
                    Some(cell) => *cell = 1.0,
                    None => {
                        return Err(InputError {
                            source: source.to_string(),
                            place,
                            message: format!(
                                "expected a label index below {n_labels} (the number of labels; \
                                 set it with --n-labels), found {index}"
                            ),
                        })
                    }
                }
            }
            read += 1;
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_lists_become_indicator_rows() {
        let read = |text: &str, n_labels| {
            let mut rows = LabelRows {
                lines: Lines::new(Box::new(text.as_bytes())),
                n_labels,
            };
            let mut data = Vec::new();
            rows.read_rows("y.labels", false, usize::MAX, &mut data)
                .map(|n| (n, data))
        };
        let (rows, data) = read("0 2\n\n1,3\n", 4).unwrap();
        assert_eq!(rows, 3);
        assert_eq!(
            data,
            [1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]
        );
        let e = |text| read(text, 3).unwrap_err().to_string();
        assert_eq!(
            e("0\n1 3\n"),
            "y.labels:2:2: expected a label index below 3 (the number of labels; set it with \
             --n-labels), found 3"
        );
        assert_eq!(
            e("0 -1\n"),
            "y.labels:1:2: expected a label index (0, 1, 2, ...), found \"-1\""
        );
    }
}
