"""pandas/astropy views of a locus, imported and built only when a filter touches them."""

LIGHTCURVE_COLUMNS = [
    'time', 'alert_id', 'ant_mjd', 'ant_survey', 'ant_ra', 'ant_dec', 'ant_passband', 'ant_mag',
    'ant_magerr', 'ant_maglim', 'ant_mag_corrected', 'ant_magerr_corrected',
    'ant_magulim_corrected', 'ant_magllim_corrected',
]
MJD_UNIX_EPOCH = 40587.0


def _mjd(alert):
    value = alert.mjd if alert.mjd is not None else alert.properties.get('ant_mjd')
    return float(value) if isinstance(value, (int, float)) else float('nan')


def lightcurve(locus):
    """One row per alert, oldest first, the CSV columns of the wire format; missing cells are NaN."""
    import pandas as pd

    rows = []
    for alert in locus.alerts:
        props = alert.properties
        row = {name: props.get(name) for name in LIGHTCURVE_COLUMNS[2:]}
        if row['ant_mjd'] is None:
            row['ant_mjd'] = _mjd(alert)
        row['alert_id'] = alert.alert_id
        rows.append(row)
    frame = pd.DataFrame(rows, columns=LIGHTCURVE_COLUMNS[1:])
    for name in LIGHTCURVE_COLUMNS[2:]:
        if name not in ('ant_passband',):
            frame[name] = pd.to_numeric(frame[name], errors='coerce')
    seconds = (frame['ant_mjd'] - MJD_UNIX_EPOCH) * 86400.0
    frame.insert(0, 'time', pd.to_datetime(seconds, unit='s', errors='coerce'))
    return frame


def _column(values):
    """A (masked) column for one property: bool, int64, float64, str or object by what is present."""
    import numpy as np
    from astropy.table import MaskedColumn

    present = [v for v in values if v is not None]
    mask = [v is None for v in values]
    if present and all(isinstance(v, bool) for v in present):
        data, fill = [bool(v) if v is not None else False for v in values], False
        dtype = bool
    elif present and all(isinstance(v, int) and not isinstance(v, bool) for v in present) \
            and all(-2**63 <= v < 2**63 for v in present):
        data, fill, dtype = [v if v is not None else 0 for v in values], 0, np.int64
    elif present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        data, fill, dtype = [float(v) if v is not None else np.nan for v in values], np.nan, np.float64
    elif present and all(isinstance(v, str) for v in present):
        data, fill, dtype = [v if v is not None else '' for v in values], '', str
    else:
        data, fill, dtype = list(values), None, object
    if dtype is object:
        arr = np.empty(len(values), dtype=object)
        arr[:] = data
        return MaskedColumn(arr, mask=mask)
    return MaskedColumn(np.array(data, dtype=dtype), mask=mask, fill_value=fill)


def timeseries(locus, survey=None):
    """astropy TimeSeries of every alert property (union of keys), masked where an alert lacks one."""
    from astropy.time import Time
    from astropy.timeseries import TimeSeries
    from astropy.table import Table

    alerts = [a for a in locus.alerts if survey is None or (a.survey or '').lower() == survey]
    names = []
    seen = set()
    for alert in alerts:
        for name in alert.properties:
            if name not in seen:
                seen.add(name)
                names.append(name)
    columns = {'alert_id': [a.alert_id for a in alerts]}
    columns['ant_mjd'] = [_mjd(a) for a in alerts]
    for name in names:
        if name != 'ant_mjd':
            columns[name] = [a.properties.get(name) for a in alerts]
    table = Table({name: _column(values) for name, values in columns.items()}, masked=True)
    if not alerts:
        return table
    times = Time(columns['ant_mjd'], format='mjd')
    return TimeSeries(data=table, time=times)
