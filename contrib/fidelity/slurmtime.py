"""slurmtime.py - Slurm's time stamps for the fidelity tools."""
import calendar
import time


def epoch(s):
    """Seconds since the epoch of sacct's Submit/Start/End (an integer,
    or YYYY-MM-DDTHH:MM:SS in UTC); None for anything else (Unknown,
    None, empty)."""
    if s.isdigit():
        return int(s)
    try:
        return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None
