"""pandas/astropy views of a locus, imported and built only when a filter touches them."""

LIGHTCURVE_COLUMNS = [
    'time', 'alert_id', 'ant_mjd', 'ant_survey', 'ant_ra', 'ant_dec', 'ant_passband', 'ant_mag',
    'ant_magerr', 'ant_maglim', 'ant_mag_corrected', 'ant_magerr_corrected',
    'ant_magulim_corrected', 'ant_magllim_corrected',
]
MJD_UNIX_EPOCH = 40587.0
EXACT_FLOAT_INT = 2 ** 53  # the largest integer range float64 holds exactly


def _mjd(alert):
    value = alert.mjd if alert.mjd is not None else alert.properties.get('ant_mjd')
    return float(value) if isinstance(value, (int, float)) else float('nan')


def lightcurve(locus):
    """One row per alert, oldest first, the wire format's CSV columns, with the dtypes the published
    client's `Locus.lightcurve` has: the server's CSV text read by pandas (a number column with a
    missing cell is float64 with NaN; `time` is the CSV's text, as there)."""
    import io

    import pandas as pd

    return pd.read_csv(io.StringIO(lightcurve_csv(locus.alerts)))


def lightcurve_csv(alerts):
    """The CSV apps/server/src/services/lightcurve.ts sends for these alerts."""
    lines = [','.join(LIGHTCURVE_COLUMNS)]
    for alert in alerts:
        props = alert.properties
        mjd = _mjd(alert)
        cells = [_csv_time(mjd), _csv_cell(alert.alert_id), _csv_cell(mjd)]
        cells += [_csv_cell(props.get(name)) for name in LIGHTCURVE_COLUMNS[3:]]
        lines.append(','.join(cells))
    return '\n'.join(lines) + '\n'


def _csv_time(mjd):
    import datetime
    if mjd != mjd:
        return ''
    ms = int((mjd - MJD_UNIX_EPOCH) * 86400000.0)  # a JavaScript Date's whole milliseconds
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)
    return moment.strftime('%Y-%m-%d %H:%M:%S.') + f'{moment.microsecond // 1000:03d}'


def _csv_cell(value):
    if value is None or (isinstance(value, float) and value != value):
        return ''
    if isinstance(value, bool):
        text = 'true' if value else 'false'
    elif isinstance(value, float):  # JavaScript's String(): no '.0' on whole numbers
        text = str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    else:
        text = str(value)
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in '",\n') else text


def _column(values):
    """A masked column for one property, with the dtype the published client's `Locus.timeseries` gives
    (numpy's, from the values), except for integers: float64, NaN where an alert lacks the property, as in
    the devkit's frames. Any alert may lack a number (an upper limit has no candid, nbad, ...), and
    `ts['ztf_nbad'].filled(np.nan)` fails on an int64 column, missing values or not. Integers beyond
    2**53 (64-bit ids) stay int64: a float would change them."""
    import numpy as np
    from astropy.table import MaskedColumn

    mask = [v is None for v in values]
    present = next((v for v in values if v is not None), None)
    filled = [present if v is None else v for v in values]
    try:
        data = np.array(filled)
    except (OverflowError, ValueError):
        data = None
    if data is None or data.ndim != 1:
        data = np.empty(len(values), dtype=object)
        data[:] = filled
    if data.dtype.kind in 'iu' and (not len(data) or int(np.abs(data).max()) <= EXACT_FLOAT_INT):
        data = data.astype(np.float64)
    if data.dtype.kind == 'f':
        data[np.asarray(mask, dtype=bool)] = np.nan
        return MaskedColumn(data, mask=mask, fill_value=np.nan)
    return MaskedColumn(data, mask=mask)


def timeseries(locus, survey=None):
    """astropy TimeSeries of every alert property, as the published client builds it (`time` from the
    alert MJD; columns in the first alert's order when it has every property any alert has, else sorted),
    with `alert_id` first and masked where an alert lacks a property."""
    from astropy.time import Time
    from astropy.timeseries import TimeSeries
    from astropy.table import Table

    alerts = [a for a in locus.alerts if survey is None or (a.survey or '').lower() == survey]
    rows = []
    for alert in alerts:
        props = alert.properties
        rows.append(props if 'ant_mjd' in props else dict(props, ant_mjd=_mjd(alert)))
    every = set().union(*rows)
    names = list(rows[0]) if rows and set(rows[0]) == every else sorted(every)
    columns = {'alert_id': [a.alert_id for a in alerts]}
    for name in names:
        if name != 'alert_id':
            columns[name] = [row.get(name) for row in rows]
    table = Table({name: _column(values) for name, values in columns.items()}, masked=True)
    if not alerts:
        return table
    times = Time([_mjd(a) for a in alerts], format='mjd')
    return TimeSeries(data=table, time=times)
