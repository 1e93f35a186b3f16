"""The typed state, records, boundary contracts and settings of a satiate run."""
