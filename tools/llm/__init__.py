"""The model layer's side effects: building chat models from a setting, checking they answer, and getting structured
answers out of them that small local models can keep."""
