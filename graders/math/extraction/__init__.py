"""Final-answer extraction: take the answer out of a reply, saying which rule fired and where.

`extract.py` holds the rules in order; the other modules find the parts of a reply they read
(spans and math segments, regions to mask, tool programs and their printed output, stated
numbers, numbers in words, runs of boxes, concluding statements, named choices). The judging
half of `graders.math` uses only `extract.extract_final_answer`, `spans.matching_brace` and
`number_words.words_to_digits`.
"""
