"""Math graders: final-answer extraction with provenance, and exact/normalized/symbolic verdicts."""
